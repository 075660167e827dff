// Publishes the typed client's StrykerJS run: `node scripts/stryker/publish-client.mjs` after
// `npm run mutation:client` (or :ci) rewrites reports/mutants-client/stryker-sdk.md from
// reports/stryker-client/mutation.json, each undetected mutant with its reason from client-survivors.mjs.
// The page's leading comment (the run, its before -> after figures) is kept for a person to update.
import { readFile, writeFile } from 'node:fs/promises';
import { clientSurvivorReasons } from './client-survivors.mjs';
import { scoreMarkdown } from './score-markdown.mjs';

const reportFile = 'reports/stryker-client/mutation.json';
const pageFile = 'reports/mutants-client/stryker-sdk.md';

/** Notes by reason: each mutant's reason, or a mark that none is written yet; a repeat reads "as above". */
function notes() {
  let last = '';
  return (/** @type {string} */ path, /** @type {any} */ m) => {
    const key = `${path} ${m.location.start.line}:${m.location.start.column} ${m.mutatorName}`;
    const reason = clientSurvivorReasons[key] ?? '**not yet explained**';
    const note = `${path} ${reason}` === last && !reason.startsWith('**') ? 'as above' : reason;
    last = `${path} ${reason}`;
    return note;
  };
}

/** The page: `header` (an HTML comment, or nothing), then the scores and each survivor with its reason. */
export function clientPage(/** @type {any} */ report, header = '') {
  const noteOf = notes();
  const body = scoreMarkdown(report, 90, {
    regenerate:
      'Regenerate with `npm run mutation:client` (full) or `npm run mutation:client:ci` (incremental), then ' +
      '`node scripts/stryker/publish-client.mjs`. Each mutant left undetected carries its reason.',
    noteOf,
  });
  return header === '' ? body : `${header}\n\n${body}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = JSON.parse(await readFile(reportFile, 'utf8'));
  const old = await readFile(pageFile, 'utf8').catch(() => '');
  const header = /^<!--[\s\S]*?-->/.exec(old)?.[0] ?? '';
  const page = clientPage(report, header);
  await writeFile(pageFile, page);
  const unexplained = page.split('\n').filter((l) => l.endsWith('**not yet explained**')).length;
  console.log(`${pageFile} written; ${unexplained} undetected mutant(s) not yet explained`);
}
