/**
 * `npm run hostile:proxy`: the proxy's hostile acceptance at full size, 10,000 fuzzed exchanges
 * (`--runs N`, `--seed N` to replay). Prints the figures; exits 1 on a crash, an altered byte, or
 * RSS past its bound.
 */
import { defaultSeed, heapGrowthBoundMiB, rssGrowthBoundMiB, runProxyFuzz } from './proxy-fuzz.ts';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : undefined;
};
const result = await runProxyFuzz({ runs: flag('--runs') ?? 10_000, seed: flag('--seed') ?? defaultSeed });
const grew = result.rssPeakMiB - result.rssStartMiB;
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
process.stdout.write(
  `proxy hostile run: ${result.sent} exchanges in ${result.seconds} s (seed ${result.seed}); ` +
    `crashed ${result.crashed ? 'yes' : 'no'}, /_proxy/report after: ${result.reportStatus}; ` +
    `altered ${result.altered.length}; RSS ${result.rssStartMiB} → peak ${result.rssPeakMiB} MiB ` +
    `(+${grew.toFixed(1)}, bound +${rssGrowthBoundMiB}); heap after GC ${result.heapStartMiB} → ${result.heapAfterMiB} MiB ` +
    `(bound +${heapGrowthBoundMiB}); open files ${result.openFiles.start} → ${result.openFiles.after}\n`,
);
const heapGrew = result.heapAfterMiB - result.heapStartMiB;
const ok =
  !result.crashed &&
  result.reportStatus === 200 &&
  result.altered.length === 0 &&
  grew <= rssGrowthBoundMiB &&
  heapGrew <= heapGrowthBoundMiB;
process.exitCode = ok ? 0 : 1;
