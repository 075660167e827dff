/**
 * The house rules of src/ (ARCHITECTURE.md, "Rules"), checked by `npm run check:deps` in `npm test`.
 * Each rule's name is the one ARCHITECTURE.md cites.
 */

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Files of src/ never import each other in a loop.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'suite-not-above',
      severity: 'error',
      comment:
        'The suite speaks HTTP only: it imports neither the server nor the run machinery, the reports or the CLI.',
      from: { path: '^src/suite/' },
      to: { path: '^src/(server|run|report|cli|docs)/' },
    },
    {
      name: 'server-stands-alone',
      severity: 'error',
      comment:
        'The reference server shares only the contract, shared/ and the client grader (grade/) with the rest: ' +
        'no suite, run, report, CLI or docs.',
      from: { path: '^src/server/' },
      to: { path: '^src/(suite|run|report|cli|docs|checks|client)/' },
    },
    {
      name: 'sdk-contract-types-only',
      severity: 'error',
      comment: 'The typed client ships alone: from src/ it imports only types of contract/.',
      from: { path: '^src/sdk/' },
      to: { path: '^src/', pathNot: ['^src/sdk/', '^src/contract/'] },
    },
    {
      name: 'sdk-contract-types-only',
      severity: 'error',
      comment: 'The typed client ships alone: from src/ it imports only types of contract/.',
      from: { path: '^src/sdk/' },
      to: { path: '^src/contract/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'proxy-apart',
      severity: 'error',
      comment:
        'The proxy judges traffic with traffic/, grade/ and report/: never the server, the suite or the run machinery.',
      from: { path: '^src/proxy/' },
      to: {
        path: '^src/',
        pathNot: ['^src/(proxy|traffic|grade|report|contract|shared)/', '^src/client/exchange\\.ts$'],
      },
    },
    {
      name: 'proxy-apart',
      severity: 'error',
      comment: 'The proxy reads the exchange shape of client/ as types only.',
      from: { path: '^src/proxy/' },
      to: { path: '^src/client/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'traffic-apart',
      severity: 'error',
      comment:
        'The passive judge reuses the checks, the contract, the report model and the grader: never the server, ' +
        'the run machinery or the CLI; of client/ the exchange and its curl, of suite/ the balance reader.',
      from: { path: '^src/traffic/' },
      to: {
        path: '^src/',
        pathNot: [
          '^src/(traffic|contract|shared|checks|grade|report|fixtures)/',
          '^src/client/(exchange|curl)\\.ts$',
          '^src/suite/account-balance\\.ts$',
        ],
      },
    },
    {
      name: 'traffic-apart',
      severity: 'error',
      comment: 'Only the proxy and the CLI use the passive judge; the grader reads the traffic record (a type).',
      from: { path: '^src/', pathNot: ['^src/(traffic|proxy|cli|grade)/'] },
      to: { path: '^src/traffic/' },
    },
    {
      name: 'run-below-cli',
      severity: 'error',
      comment: 'Imports run cli -> run -> suite: the run machinery never reaches back into the CLI.',
      from: { path: '^src/run/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'report-below-run',
      severity: 'error',
      comment: 'Reports render results: they import neither the run machinery, the CLI nor the server.',
      from: { path: '^src/report/' },
      to: { path: '^src/(run|cli|server)/' },
    },
    {
      name: 'docs-not-cli',
      severity: 'error',
      comment: 'The docs builder is called by the CLI, never the other way round.',
      from: { path: '^src/docs/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'grade-stands-alone',
      severity: 'error',
      comment:
        'The client grader serves both the server and the proxy: it imports only contract/ and shared/, and ' +
        'the traffic record (traffic/traffic-exchange.ts) as a type.',
      from: { path: '^src/grade/' },
      to: { path: '^src/', pathNot: ['^src/(grade|contract|shared)/', '^src/traffic/traffic-exchange\\.ts$'] },
    },
    {
      name: 'grade-stands-alone',
      severity: 'error',
      comment: 'The client grader reads the traffic record as a type only.',
      from: { path: '^src/grade/' },
      to: { path: '^src/traffic/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'shared-at-the-bottom',
      severity: 'error',
      comment: 'shared/ sits below every other folder and imports only the contract.',
      from: { path: '^src/shared/' },
      to: { path: '^src/', pathNot: ['^src/shared/', '^src/contract/'] },
    },
    {
      name: 'sandbox-apart',
      severity: 'error',
      comment: 'sandbox/ (a throwaway PostgreSQL cluster) imports only shared/.',
      from: { path: '^src/sandbox/' },
      to: { path: '^src/', pathNot: ['^src/sandbox/', '^src/shared/'] },
    },
    {
      name: 'sandbox-apart',
      severity: 'error',
      comment: "The server's PostgreSQL store never imports sandbox/ (the cluster is for tests and the sandbox).",
      from: { path: '^src/server/store/pg-' },
      to: { path: '^src/sandbox/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|\\.transpiled)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
