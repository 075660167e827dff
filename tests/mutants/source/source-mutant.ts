/**
 * A source mutant: one realistic bug written into the reference server's own code (issue 12), as
 * textual edits of one file. Unlike the proxy mutants, which can only change what crosses the wire,
 * a source mutant breaks one path of the server's logic, the way a provider's bug would.
 */
import type { RequirementId } from '../../../src/contract/requirements.ts';
import type { Family, MutantClass } from '../mutating-proxy.ts';

export interface Edit {
  /** Text that occurs exactly once in the file. */
  readonly find: string;
  readonly replace: string;
}

export interface SourceMutant {
  readonly name: string;
  /** Path from the repository root, e.g. `src/server/domain/rate-limiter.ts`. */
  readonly file: string;
  readonly edits: readonly Edit[];
  /** Edits of other files, for a bug that lives in two places at once (a waiter list and its route). */
  readonly alsoEdits?: readonly { readonly file: string; readonly edits: readonly Edit[] }[];
  readonly family: Family;
  readonly class?: MutantClass;
  /** The requirements the bug breaks; a kill is a failure of one of them that the baseline does not have. */
  readonly breaks: readonly RequirementId[];
  /** One line: the bug, as a provider would have written it. */
  readonly does: string;
  /**
   * Why the suite rightly lets it pass: `equivalent` (a bug no exchange of a run can tell from the reference),
   * or `conforming` (a change the spec allows, with the spec sentence: no bug, scored apart, and it must pass).
   */
  readonly expected?: { readonly verdict: 'equivalent' | 'conforming'; readonly why: string };
}

/** The source of `file` with the mutant's edits applied; throws when a `find` does not occur exactly once. */
export function applyEdits(source: string, mutant: Pick<SourceMutant, 'name' | 'file' | 'edits'>): string {
  let out = source;
  for (const { find, replace } of mutant.edits) {
    const first = out.indexOf(find);
    if (first === -1)
      throw new Error(
        `source mutant ${mutant.name}: ${mutant.file} no longer contains ${JSON.stringify(find.slice(0, 80))}`,
      );
    if (out.indexOf(find, first + 1) !== -1)
      throw new Error(
        `source mutant ${mutant.name}: ${JSON.stringify(find.slice(0, 80))} occurs more than once in ${mutant.file}`,
      );
    out = out.slice(0, first) + replace + out.slice(first + find.length);
  }
  if (out === source) throw new Error(`source mutant ${mutant.name}: its edits change nothing`);
  return out;
}
