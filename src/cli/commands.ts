/** The CLI's commands, each a name, a one-line summary and a function of its own argv. */
import { buildDocs } from '../docs/build-docs.ts';
import { compare } from './compare.ts';
import { fixtures } from './fixtures.ts';
import { run } from './run.ts';
import { serve } from './serve.ts';
import { parseFlags } from './parse-flags.ts';

export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly run: (argv: readonly string[]) => Promise<number>;
}

export const commands: readonly Command[] = [
  { name: 'run', summary: 'run the conformance suite (against --base-url, or the embedded reference server)', run },
  { name: 'compare', summary: 'list the requirements whose verdicts differ between two report.json files', run: compare },
  { name: 'fixtures', summary: 'export the fixture images (fixtures export DIR), or serve them with the behaviour routes (fixtures serve)', run: fixtures },
  { name: 'serve', summary: 'start the reference server (a stateful mock of the whole API)', run: serve },
  {
    name: 'docs',
    summary: 'build the docs site into reports/docs/ from openapi.yaml',
    run: async (argv) => {
      const f = parseFlags('docs', argv, { help: { type: 'boolean', short: 'h', default: false } });
      if (f.help) {
        process.stdout.write('usage: tryon-conformance docs\n\nBuilds reports/docs/index.html and catalogue.html.\n');
        return 0;
      }
      const built = await buildDocs();
      process.stdout.write(`docs: ${built.index}\ncatalogue: ${built.catalogue}\n`);
      return 0;
    },
  },
];
