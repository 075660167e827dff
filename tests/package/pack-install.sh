#!/usr/bin/env bash
# The package as an integrator gets it: `npm pack`, then two fresh projects, installed from the local
# npm cache only (--offline):
#   - a full one, the tarball with its optional peers (server, sharp, certificate maker, docs builder);
#   - a runner-only one, the tarball alone: no native module, server or docs builder in node_modules,
#     nothing compiled, no engine warning, at most 60 MB; its install time is printed (warm cache);
#     the commands that need a peer say which in one line (exit 2).
# Every command used from there:
#   - `serve` in the full project, a key from its test control, and `run --base-url …` against it from
#     the runner-only one: exit 0, a report in that project's reports/, the Markdown report appended to
#     $GITHUB_STEP_SUMMARY;
#   - `compare`, `docs` and `fixtures serve`;
#   - a bad flag and a flag without its value: one line on stderr, exit 2;
#   - the entries `tryon-conformance`, `/server`, `/client` and `/openapi.yaml` load and work in node,
#     and (typescript and @types/node installed only then, after every run) type-check with tsc.
# `npm run test:package`; KEEP=1 keeps the temporary directory. Needs every package in the npm cache
# (the repository's own `npm install` puts them there); it downloads nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."

work=$(mktemp -d "${TMPDIR:-/tmp}/tryon-package-XXXXXX")
groups=()
cleanup() {
  for group in "${groups[@]}"; do kill -TERM -- "-$group" 2>/dev/null || true; done
  if [[ -n "${KEEP:-}" ]]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

step() { echo "== package: $*"; }
fail() {
  echo "package test FAILED: $*" >&2
  exit 1
}
# Waits up to 180 s for a line matching $2 in the file $1 (a server's banner).
await_line() {
  for _ in $(seq 1 360); do
    if grep -qE "$2" "$1"; then return 0; fi
    sleep 0.5
  done
  cat "$1" >&2
  fail "no line matching '$2' in $1"
}

step "npm pack (prepack builds dist/)"
npm pack --pack-destination "$work" >"$work/pack.log" 2>&1 || { cat "$work/pack.log" >&2; fail "npm pack"; }
tarball=$(ls "$work"/tryon-conformance-*.tgz)
tar -tzf "$tarball" >"$work/contents.txt"
for must in package/dist/cli/main.js package/dist/index.js package/dist/index.d.ts package/dist/server/index.js package/dist/sdk/index.js \
  package/dist/run/vitest.package.config.js package/dist/suite/auth.suite.js package/dist/server/domain/images/decode-worker.mjs \
  package/dist/report/report.schema.json package/dist/fixtures/prebuilt/person-768x1024.jpeg package/examples/prism-expectations.yaml package/openapi.yaml package/openapi-control.yaml package/redocly.yaml package/src/contract/lint/tryon-rules.js; do
  grep -qx "$must" "$work/contents.txt" || fail "the tarball has no $must"
done
if grep -E '\.test\.|^package/tests/|^package/src/.*\.ts$|__fixtures__|__snapshots__' "$work/contents.txt"; then fail "the tarball ships tests or TypeScript sources (above)"; fi
echo "$(wc -l <"$work/contents.txt") files, $(du -k "$tarball" | cut -f1) KiB"

# The optional peers at the ranges the tarball declares, as `name@range` words.
peers=$(tar -xOzf "$tarball" package/package.json | node -e 'let s = ""; process.stdin.on("data", (c) => (s += c)).on("end", () => console.log(Object.entries(JSON.parse(s).peerDependencies).map(([n, r]) => `${n}@${r}`).join(" ")))')
heavy=(better-sqlite3 sharp fastify @fastify/multipart @redocly/cli selfsigned)

step "npm install --save-dev the tarball alone into an empty project (runner only)"
runner="$work/runner"
mkdir "$runner"
(cd "$runner" && npm init -y >/dev/null)
started=$EPOCHREALTIME
(cd "$runner" && npm install --save-dev --no-audit --no-fund --offline "$tarball") >"$work/runner-install.log" 2>&1 || { tail -30 "$work/runner-install.log" >&2; fail "npm install (runner only)"; }
seconds=$(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
for name in "${heavy[@]}"; do
  [[ ! -e "$runner/node_modules/$name" ]] || fail "the runner-only install has $name"
done
if grep -iE 'EBADENGINE|gyp|install-scripts' "$work/runner-install.log"; then fail "the runner-only install warned or compiled (above)"; fi
if [[ -n $(find "$runner/node_modules" -name binding.gyp -print -quit) ]]; then fail "the runner-only install has a native module to compile"; fi
megabytes=$(du -sm "$runner/node_modules" | cut -f1)
packages=$(cd "$runner" && npm ls --all --parseable 2>/dev/null | tail -n +2 | wc -l)
echo "  $packages packages, $megabytes MB of node_modules, installed in $seconds s (load: $(cut -d' ' -f1-3 /proc/loadavg))"
[[ $megabytes -le 60 ]] || fail "the runner-only node_modules is $megabytes MB, over 60"
runner_bin="$runner/node_modules/.bin/tryon-conformance"
for args in "serve" "docs" "fixtures serve" "run"; do
  status=0
  # shellcheck disable=SC2086
  (cd "$runner" && "$runner_bin" $args) >"$work/peer.out" 2>"$work/peer.err" || status=$?
  [[ $status -eq 2 && $(wc -l <"$work/peer.err") -eq 1 ]] || { cat "$work/peer.err" >&2; fail "'$args' without its peers exited $status"; }
  grep -q 'not installed (optional for a project that only runs the suite): npm install --save-dev ' "$work/peer.err" || fail "'$args' did not say what to install"
  echo "  $args -> 2: $(cut -c1-110 "$work/peer.err")…"
done

step "npm install --save-dev the tarball and its optional peers into an empty project (full)"
project="$work/project"
mkdir "$project"
cd "$project"
npm init -y >/dev/null
# fastify's light-my-request wants cookie 2, which asks for Node 22; cookie 1.1 has what it calls (README).
npm pkg set 'overrides.light-my-request.cookie=^1.1.1'
# shellcheck disable=SC2086
npm install --save-dev --no-audit --no-fund --offline "$tarball" $peers >"$work/install.log" 2>&1 || { tail -30 "$work/install.log" >&2; fail "npm install"; }
if grep -E 'EBADENGINE' "$work/install.log"; then fail "the full install warned of an engine (above)"; fi
cli=(npx --no-install tryon-conformance)
# npm prints its own warnings on stderr; the one-line checks call the installed bin itself.
bin="$project/node_modules/.bin/tryon-conformance"
[[ -x "$bin" ]] || fail "no executable node_modules/.bin/tryon-conformance"
[[ ! -e node_modules/typescript ]] || fail "typescript got installed with the package"

step "a bad flag and a flag without its value: one line, exit 2"
for args in "run --no-such-flag" "run --base-url" "serve --port" "nonsense"; do
  status=0
  # shellcheck disable=SC2086
  "$bin" $args >"$work/bad.out" 2>"$work/bad.err" || status=$?
  [[ $status -eq 2 ]] || fail "'$args' exited $status, not 2"
  [[ $(wc -l <"$work/bad.err") -eq 1 ]] || { cat "$work/bad.err" >&2; fail "'$args' wrote more than one line on stderr"; }
  [[ ! -s "$work/bad.out" ]] || fail "'$args' wrote to stdout"
  echo "  $args -> 2: $(cat "$work/bad.err")"
done

step "npx tryon-conformance serve (short waits), and a key from its test control"
token=package-test-token
setsid "${cli[@]}" serve --port 0 --db "$work/reference.db" --control-token "$token" --sync-wait-ms 2000 --generation-latency-ms 100 >"$work/serve.log" 2>&1 &
groups+=($!)
await_line "$work/serve.log" 'API base URL +http://'
origin=$(sed -nE 's#.*API base URL +(http://[^ ]+)/api/v1.*#\1#p' "$work/serve.log")
key=$(curl -sf -X POST -H "Authorization: Bearer $token" "$origin/_control/accounts" | node -e 'let s = ""; process.stdin.on("data", (c) => (s += c)).on("end", () => console.log(JSON.parse(s).apiKey))')
[[ -n "$key" ]] || fail "no API key from $origin/_control/accounts"
echo "  $origin"

step "tryon-conformance run --base-url $origin/api/v1 (from the runner-only project; no test control)"
summary="$work/step-summary.md"
: >"$summary"
status=0
(cd "$runner" && env -u TRYON_CONTROL_URL -u TRYON_CONTROL_TOKEN TRYON_API_KEY="$key" GITHUB_STEP_SUMMARY="$summary" CI=1 \
  "$runner_bin" run --base-url "$origin/api/v1" --profile quick) >"$work/run.log" 2>&1 || status=$?
tail -8 "$work/run.log"
[[ $status -eq 0 ]] || { cat "$work/run.log" >&2; fail "run exited $status"; }
for file in report.json junit.xml report.md report.html; do
  [[ -s "$runner/reports/latest/$file" ]] || fail "no reports/latest/$file in the runner-only project"
done
grep -q "Report: $runner/reports/" "$work/run.log" || fail "the run did not report a path under the project's reports/"
[[ -s "$summary" ]] || fail "the run wrote nothing to GITHUB_STEP_SUMMARY"
cp -r "$runner/reports" "$project/reports"

step "npx tryon-conformance compare (a report against itself)"
"${cli[@]}" compare reports/latest/report.json reports/latest/report.json >"$work/compare.log" 2>&1 || { cat "$work/compare.log" >&2; fail "compare"; }

step "npx tryon-conformance fixtures serve"
setsid "${cli[@]}" fixtures serve --port 0 --ca-file "$work/fixture-ca.pem" >"$work/fixtures.log" 2>&1 &
groups+=($!)
await_line "$work/fixtures.log" 'Fixture host +https://'
[[ -s "$work/fixture-ca.pem" ]] || fail "fixtures serve wrote no certificate"

step "npx tryon-conformance docs"
"${cli[@]}" docs >"$work/docs.log" 2>&1 || { cat "$work/docs.log" >&2; fail "docs"; }
[[ -s reports/docs/index.html && -s reports/docs/catalogue.html ]] || fail "docs wrote no reports/docs/index.html and catalogue.html in the project"

step "the entries load and work in node"
cat >smoke.mjs <<'EOF'
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { runConformance } from 'tryon-conformance';
import { createReferenceServer, withDefaults } from 'tryon-conformance/server';
import { TryOnClient } from 'tryon-conformance/client';

const [origin, apiKey] = process.argv.slice(2);
const check = (ok, what) => { if (!ok) throw new Error(what); };

// /server: a reference server in-process.
const server = await createReferenceServer({ dbPath: ':memory:', settings: withDefaults(), controlToken: 't' });
const local = await server.listen('127.0.0.1', 0);
check((await fetch(`${local}/api/v1/account`)).status === 401, 'the in-process server does not refuse a request without a key');
await server.close();

// /client: the account of the key, through the client.
const account = await new TryOnClient({ baseUrl: `${origin}/api/v1`, apiKey }).getAccount();
check(typeof account.credits === 'number', `getAccount gave ${JSON.stringify(account)}`);

// /openapi.yaml
const spec = readFileSync(createRequire(import.meta.url).resolve('tryon-conformance/openapi.yaml'), 'utf8');
check(spec.startsWith('openapi: 3'), 'openapi.yaml does not start with openapi: 3');

// .: a programmatic run, narrowed to the free authentication tests; files only when asked.
const run = await runConformance({ baseUrl: `${origin}/api/v1`, apiKey, profile: 'quick', grep: 'auth', creditBudget: 0 });
check(run.exitCode === 0, `runConformance exit ${run.exitCode}: ${JSON.stringify(run.report.summary)}`);
check(run.files === undefined, 'runConformance wrote files without reportDir');
const passed = run.report.requirements.filter((r) => r.verdict === 'pass').length;
check(passed > 0, 'runConformance judged no requirement');
let refused = '';
await runConformance({ baseUrl: 'ftp://x' }).catch((e) => (refused = e.message));
check(refused.includes('--base-url must be an http(s) URL'), `a bad baseUrl gave '${refused}'`);
console.log(`  server 401 without a key; client: ${account.credits} credits; runConformance: exit 0, ${passed} requirements passed`);
EOF
node smoke.mjs "$origin" "$key" || fail "the entries do not work in node"

step "the entries type-check (typescript and @types/node installed now, after every run)"
npm install --save-dev --no-audit --no-fund --prefer-offline typescript@~5.9.3 @types/node@^20 >>"$work/install.log" 2>&1 || { tail -30 "$work/install.log" >&2; fail "npm install typescript"; }
cat >tsconfig.json <<'EOF'
{
  "compilerOptions": {
    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "strict": true,
    "noEmit": true,
    "skipLibCheck": false,
    "types": ["node"]
  },
  "include": ["check.ts"]
}
EOF
cat >check.ts <<'EOF'
import { runConformance, ToolkitError, type ConformanceRun, type Report, type RunConformanceOptions } from 'tryon-conformance';
import { createReferenceServer, withDefaults, type ReferenceServer, type ServerOptions } from 'tryon-conformance/server';
import { TryOnClient } from 'tryon-conformance/client';

// An `any` would type-check anything: each entry's types must be real.
type IsAny<T> = 0 extends 1 & T ? true : false;
const real: [IsAny<ConformanceRun>, IsAny<Report>, IsAny<ReferenceServer>, IsAny<TryOnClient>, IsAny<typeof ToolkitError>] = [false, false, false, false, false];

const options: RunConformanceOptions = { baseUrl: 'http://127.0.0.1:8787/api/v1', apiKey: 'key', profile: 'quick', reportDir: 'reports' };
export async function check(): Promise<number> {
  const run: ConformanceRun = await runConformance(options);
  const outcome: string = run.report.summary.outcome;
  const serverOptions: ServerOptions = { dbPath: ':memory:', settings: withDefaults({ syncWaitMs: 2_000 }) };
  const server: ReferenceServer = await createReferenceServer(serverOptions);
  const origin: string = await server.listen('127.0.0.1', 0);
  await server.close();
  const client = new TryOnClient({ baseUrl: `${origin}/api/v1`, apiKey: 'key' });
  const credits: number = (await client.getAccount()).credits;
  return real.length + outcome.length + credits;
}
EOF
npx --no-install tsc -p tsconfig.json || fail "the entries do not type-check (above)"

echo "== package: every check passed"
