/**
 * A vitest reporter that passes the hooks of its reporters on only once opened. `run` collects the
 * suite for its plan on the vitest instance that then runs it; the collection is no part of the
 * run, so the run's reporters see nothing of it (no "collected" module before the run starts).
 */
import type { Reporter } from 'vitest/node';

export interface ReporterGate {
  /** Given to vitest: one reporter for all of `reporters`, silent until {@link open}. */
  readonly reporter: Reporter;
  open(): void;
}

const method = (r: Reporter, name: string): unknown => (r as Record<string, unknown>)[name];

export function reporterGate(reporters: ReadonlyArray<Reporter>): ReporterGate {
  let opened = false;
  const hooks = new Map<string, (...args: unknown[]) => Promise<unknown> | undefined>();
  const hook = (name: string) => {
    const made = hooks.get(name);
    if (made) return made;
    const call = (...args: unknown[]): Promise<unknown> | undefined => {
      if (!opened) return undefined;
      return Promise.all(
        reporters.map((r) => {
          const f = method(r, name);
          return typeof f === 'function' ? (f as (...a: unknown[]) => unknown).apply(r, args) : undefined;
        }),
      );
    };
    hooks.set(name, call);
    return call;
  };
  const reporter = new Proxy({} as Reporter, {
    // Only the hooks one of the reporters has; never `then` (the object is no promise).
    get: (_, name) =>
      typeof name === 'string' && name !== 'then' && reporters.some((r) => typeof method(r, name) === 'function')
        ? hook(name)
        : undefined,
    has: (_, name) => typeof name === 'string' && reporters.some((r) => name in r),
  });
  return {
    reporter,
    open() {
      opened = true;
    },
  };
}
