// The Markdown page of a StrykerJS run: the mutation score of each file, then each survivor by place.
// Input: a mutation-testing-report-schema report (what Stryker's json reporter writes).

/** Statuses that count as detected, and as undetected, in Stryker's mutation score. */
const detected = new Set(['Killed', 'Timeout']);
const undetected = new Set(['Survived', 'NoCoverage']);

/**
 * Counts of one file's mutants by status, and its score: detected / (detected + undetected), in percent,
 * or null when the file has no valid mutant.
 * @param {readonly { status: string }[]} mutants
 */
export function fileScore(mutants) {
  const count = (/** @type {string} */ s) => mutants.filter((m) => m.status === s).length;
  const killed = count('Killed');
  const timeout = count('Timeout');
  const survived = count('Survived');
  const noCoverage = count('NoCoverage');
  const errors = count('CompileError') + count('RuntimeError');
  const ignored = count('Ignored');
  const caught = mutants.filter((m) => detected.has(m.status)).length;
  const valid = caught + mutants.filter((m) => undetected.has(m.status)).length;
  const score = valid === 0 ? null : (100 * caught) / valid;
  return { killed, timeout, survived, noCoverage, errors, ignored, score };
}

/** A score as `93.4 %`, or `n/a`. @param {number | null} score */
function percent(score) {
  return score === null ? 'n/a' : `${score.toFixed(1)} %`;
}

/** Text as a one-line Markdown code span: whitespace collapsed, cut at 80 characters, backticks fenced. */
function codeSpan(/** @type {string} */ text) {
  const flat = text.replace(/\s+/g, ' ').trim();
  const cut = flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
  const fence = cut.includes('`') ? '``' : '`';
  return `${fence} ${cut.replaceAll('|', '\\|')} ${fence}`;
}

/**
 * The page: one table row per file (sorted by path) and a total, then the survivors and uncovered
 * mutants of each file with line, column, mutator and replacement.
 * @param {{ files: Record<string, { mutants: readonly any[] }> }} report
 * @param {number} goal the score each file should reach, in percent
 * @param {{ regenerate?: string, noteOf?: (path: string, mutant: any) => string | undefined }} [options]
 *   `regenerate`: the line that says how to run it again; `noteOf`: why an undetected mutant is left, if known.
 */
export function scoreMarkdown(report, goal = 90, options = {}) {
  const regenerate =
    options.regenerate ?? 'Regenerate with `npm run mutation` (full) or `npm run mutation:ci` (incremental).';
  const paths = Object.keys(report.files).sort();
  const all = paths.flatMap((p) => report.files[p].mutants);
  const row = (/** @type {string} */ name, /** @type {readonly any[]} */ mutants) => {
    const s = fileScore(mutants);
    const mark = s.score !== null && s.score < goal ? ' (below goal)' : '';
    const cells = [name, `${percent(s.score)}${mark}`, s.killed, s.timeout, s.survived, s.noCoverage, s.errors];
    return `| ${[...cells, s.ignored].join(' | ')} |`;
  };
  const lines = [
    '# Mutation score (StrykerJS)',
    '',
    `Score = (killed + timeout) / (killed + timeout + survived + no coverage). Goal: at least ${goal} % per file.`,
    regenerate,
    '',
    '| File | Score | Killed | Timeout | Survived | No coverage | Errors | Ignored |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...paths.map((p) => row(`\`${p}\``, report.files[p].mutants)),
    row('**All files**', all),
  ];
  const missed = paths
    .map((p) => ({ p, ms: report.files[p].mutants.filter((m) => undetected.has(m.status)) }))
    .filter(({ ms }) => ms.length > 0);
  if (missed.length > 0) lines.push('', '## Not detected');
  for (const { p, ms } of missed) {
    lines.push('', `### \`${p}\``, '');
    const sorted = [...ms].sort(
      (a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column,
    );
    for (const m of sorted) {
      const at = `${m.location.start.line}:${m.location.start.column}`;
      const repl = m.replacement === undefined ? '' : ` → ${codeSpan(m.replacement)}`;
      const note = options.noteOf?.(p, m);
      const status = m.status === 'NoCoverage' ? 'no coverage' : 'survived';
      lines.push(`- ${at} ${m.mutatorName}${repl} (${status})${note === undefined ? '' : `: ${note}`}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
