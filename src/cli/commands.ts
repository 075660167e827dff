/**
 * The CLI's commands, each a name, a one-line summary and a function of its own argv. A command's
 * module loads when it runs, so `run` starts the embedded server's processes before the reference
 * server, the docs builder or vitest are loaded into this one.
 */
import { parseFlags } from './parse-flags.ts';
import { assertInstalled, docsPackages, serverPackages } from '../shared/optional-packages.ts';

export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly run: (argv: readonly string[]) => Promise<number>;
}

export const commands: readonly Command[] = [
  {
    name: 'run',
    summary: 'run the conformance suite (against --base-url, or the embedded reference server)',
    run: async (argv) => (await import('./run.ts')).run(argv),
  },
  {
    name: 'compare',
    summary: 'list the requirements whose verdicts differ between two report.json files',
    run: async (argv) => (await import('./compare.ts')).compare(argv),
  },
  {
    name: 'fixtures',
    summary:
      'export the fixture images (fixtures export DIR), or serve them with the behaviour routes (fixtures serve)',
    run: async (argv) => (await import('./fixtures.ts')).fixtures(argv),
  },
  {
    name: 'serve',
    summary: 'start the reference server (a stateful mock of the whole API)',
    run: async (argv) => {
      assertInstalled('serve (the reference server)', serverPackages);
      return (await import('./serve.ts')).serve(argv);
    },
  },
  {
    name: 'proxy',
    summary: 'forward traffic to a server and judge it live, the server and its clients (--upstream URL)',
    run: async (argv) => {
      if (!argv.includes('--help') && !argv.includes('-h'))
        assertInstalled('proxy', ['fastify', '@fastify/reply-from']);
      return (await import('./proxy.ts')).proxy(argv);
    },
  },
  {
    name: 'judge',
    summary: 'judge a recording of traffic (NDJSON or HAR) by the spec, sending nothing; writes the reports of a run',
    run: async (argv) => (await import('./judge.ts')).judge(argv),
  },
  {
    name: 'docs',
    summary: 'build the docs site into reports/docs/ from openapi.yaml',
    run: async (argv) => {
      const f = parseFlags('docs', argv, { help: { type: 'boolean', short: 'h', default: false } });
      if (f.help) {
        process.stdout.write('usage: tryon-conformance docs\n\nBuilds reports/docs/index.html and catalogue.html.\n');
        return 0;
      }
      assertInstalled('docs', docsPackages);
      const { buildDocs } = await import('../docs/build-docs.ts');
      const built = await buildDocs();
      process.stdout.write(`docs: ${built.index}\ncatalogue: ${built.catalogue}\n`);
      return 0;
    },
  },
];
