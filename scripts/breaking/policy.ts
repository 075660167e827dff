/**
 * What a breaking change needs to pass: `info.version` raised above the released one, and a line in
 * CHANGELOG.md that names the new version as `openapi.yaml <version>`. Without breaking changes
 * nothing is needed.
 */
import type { BreakingChange } from './compare.ts';

export interface BreakingInput {
  readonly changes: readonly BreakingChange[];
  readonly releasedVersion: string;
  readonly currentVersion: string;
  readonly changelog: string;
}

export interface BreakingVerdict {
  readonly ok: boolean;
  readonly lines: readonly string[];
}

/** How many changes are listed before "and N more". */
const listed = 25;

/** The verdict and the lines to print. */
export function breakingVerdict(input: BreakingInput): BreakingVerdict {
  const { changes, releasedVersion, currentVersion } = input;
  if (changes.length === 0) {
    return { ok: true, lines: [`No breaking change since the released openapi.yaml ${releasedVersion}.`] };
  }
  const list = [
    ...changes.slice(0, listed).map((c) => `  - ${c.description} (${c.path})`),
    ...(changes.length > listed ? [`  ... and ${changes.length - listed} more`] : []),
  ];
  const bumped = compareVersions(currentVersion, releasedVersion) > 0;
  const noted = changelogNames(input.changelog, currentVersion);
  if (bumped && noted) {
    return {
      ok: true,
      lines: [
        `${changes.length} breaking change(s) since ${releasedVersion}, released deliberately as ${currentVersion} (CHANGELOG.md names it):`,
        ...list,
      ],
    };
  }
  const missing = [
    ...(bumped ? [] : [`raise info.version above ${releasedVersion} (it is ${currentVersion})`]),
    ...(noted
      ? []
      : [`add a line naming \`openapi.yaml ${bumped ? currentVersion : '<new version>'}\` to CHANGELOG.md`]),
  ];
  return {
    ok: false,
    lines: [
      `${changes.length} breaking change(s) since the released openapi.yaml ${releasedVersion}:`,
      ...list,
      `If the break is deliberate: ${missing.join(', and ')}.`,
    ],
  };
}

/** Whether a changelog line names `openapi.yaml <version>` (a `v` before the version is allowed). */
export function changelogNames(changelog: string, version: string): boolean {
  const escaped = version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`openapi\\.yaml\\s+v?${escaped}(?![0-9A-Za-z.-])`, 'm').test(changelog);
}

/** Compares dotted numeric versions (`1.10.0` > `1.9.2`); a pre-release suffix sorts before the release. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const [core = '', pre] = v.trim().replace(/^v/, '').split('-', 2);
    return { parts: core.split('.').map((p) => Number.parseInt(p, 10) || 0), pre };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < Math.max(x.parts.length, y.parts.length); i++) {
    const d = (x.parts[i] ?? 0) - (y.parts[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  return x.pre < y.pre ? -1 : 1;
}
