/**
 * The stylesheet of report.html, inlined: system fonts, light and dark themes through
 * prefers-color-scheme, one colour per verdict, and a print layout without the controls.
 */
export const reportCss = `
:root {
  color-scheme: light dark;
  --bg: #f5f6f8; --panel: #fff; --text: #1f2328; --muted: #5b6570; --line: #d5dbe1; --soft: #eef1f4; --code: #f3f5f7;
  --accent: #0b61d6; --shadow: 0 1px 2px rgba(16, 24, 40, .06), 0 1px 3px rgba(16, 24, 40, .08);
  --pass: #1a7f37; --pass-bg: #dcf7e3; --fail: #cf222e; --fail-bg: #ffe9e7; --skip: #9a6700; --skip-bg: #fff4c2;
  --nobs: #7a4fd1; --nobs-bg: #f3ecff; --ncov: #6e7781; --ncov-bg: #e9edf1; --inc: #0e7c86; --inc-bg: #daf5f7; --err: #bc4c00; --err-bg: #fff1e5;
  --mono: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace;
}
@media screen and (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --panel: #151b23; --text: #e6edf3; --muted: #9aa4af; --line: #2f3742; --soft: #1d242d; --code: #10161d;
    --accent: #58a6ff; --shadow: 0 0 0 1px rgba(240, 246, 252, .04);
    --pass: #3fb950; --pass-bg: rgba(46, 160, 67, .16); --fail: #ff6b61; --fail-bg: rgba(248, 81, 73, .16); --skip: #e3b341; --skip-bg: rgba(187, 128, 9, .18);
    --nobs: #b28cff; --nobs-bg: rgba(163, 113, 247, .16); --ncov: #8b949e; --ncov-bg: rgba(110, 118, 129, .2);
    --inc: #39c5cf; --inc-bg: rgba(57, 197, 207, .16); --err: #f0883e; --err-bg: rgba(219, 109, 40, .18);
  }
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
html { scroll-padding-top: 72px; }
body { margin: 0; background: var(--bg); color: var(--text); font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; -webkit-font-smoothing: antialiased; }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
code, pre, kbd { font-family: var(--mono); font-size: 12.5px; }
pre { margin: 0; padding: 10px 12px; background: var(--code); border: 1px solid var(--line); border-radius: 6px; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 420px; }
h1, h2, h3, h4 { line-height: 1.25; margin: 0; }
.wrap { max-width: 1240px; margin: 0 auto; padding: 0 24px; }
.muted { color: var(--muted); }
.v-pass { --v: var(--pass); --vbg: var(--pass-bg); }
.v-fail { --v: var(--fail); --vbg: var(--fail-bg); }
.v-inconclusive { --v: var(--inc); --vbg: var(--inc-bg); }
.v-error { --v: var(--err); --vbg: var(--err-bg); }
.v-skip { --v: var(--skip); --vbg: var(--skip-bg); }
.v-not-observable { --v: var(--nobs); --vbg: var(--nobs-bg); }
.v-not-covered { --v: var(--ncov); --vbg: var(--ncov-bg); }

/* masthead */
.masthead { background: var(--panel); border-bottom: 1px solid var(--line); padding: 20px 0 18px; }
.brand { display: flex; gap: 16px; align-items: baseline; justify-content: space-between; flex-wrap: wrap; color: var(--muted); font-size: 13px; }
.brand strong { color: var(--text); font-weight: 600; }
.brand nav a { margin-left: 14px; }
.headline { display: flex; align-items: center; gap: 16px; margin: 14px 0 16px; }
.outcome-icon { flex: none; width: 48px; height: 48px; border-radius: 50%; display: grid; place-items: center; font-size: 26px; font-weight: 700; color: #fff; background: var(--v); }
.headline h1 { font-size: 26px; font-weight: 650; letter-spacing: -.01em; }
.headline p { margin: 2px 0 0; color: var(--muted); font-size: 15px; }
.facts { display: flex; flex-wrap: wrap; gap: 8px 28px; margin: 0; }
.facts div { min-width: 0; }
.facts dt { font-size: 11px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); }
.facts dd { margin: 0; font-weight: 500; overflow-wrap: anywhere; }
.tag { display: inline-block; font-size: 11px; padding: 0 7px; border-radius: 10px; background: var(--soft); color: var(--muted); border: 1px solid var(--line); font-weight: 500; vertical-align: 1px; }

/* summary */
.summary { margin-top: 20px; }
.cards { display: grid; grid-template-columns: repeat(6, minmax(0, 1fr)); gap: 12px; }
.card { font: inherit; color: inherit; text-align: left; cursor: pointer; background: var(--panel); border: 1px solid var(--line); border-top: 4px solid var(--v); border-radius: 10px; padding: 12px 16px 12px; box-shadow: var(--shadow); transition: background .12s, box-shadow .12s; }
.card:hover { background: var(--vbg); }
.card[aria-pressed="true"] { background: var(--vbg); box-shadow: inset 0 0 0 2px var(--v); }
.card .num { display: block; font-size: 34px; font-weight: 700; line-height: 1.1; color: var(--v); font-variant-numeric: tabular-nums; }
.card.zero { border-top-color: var(--line); }
.card.zero .num { color: var(--muted); opacity: .6; }
.card .lbl { display: block; font-weight: 600; font-size: 15px; margin-top: 2px; white-space: nowrap; }
.card .sub { display: block; font-size: 12px; color: var(--muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.panels { display: grid; grid-template-columns: minmax(0, 1.3fr) minmax(0, 1.2fr) minmax(0, .8fr); gap: 12px; margin-top: 12px; }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; box-shadow: var(--shadow); padding: 14px 18px; }
.panel h2 { font-size: 11.5px; text-transform: uppercase; letter-spacing: .07em; color: var(--muted); font-weight: 600; margin-bottom: 8px; }
.rate-head { display: flex; align-items: baseline; gap: 12px; flex-wrap: wrap; }
.rate-num { font-size: 28px; font-weight: 700; line-height: 1.1; font-variant-numeric: tabular-nums; }
.bar { display: flex; height: 14px; border-radius: 7px; overflow: hidden; background: var(--soft); margin: 10px 0 8px; }
.bar span { display: block; height: 100%; background: var(--v); }
.bar span + span { box-shadow: inset 2px 0 0 var(--panel); }
.legend { display: flex; flex-wrap: wrap; gap: 4px 12px; font-size: 12px; color: var(--muted); }
.legend i, .dot { display: inline-block; width: 9px; height: 9px; border-radius: 50%; background: var(--v); margin-right: 5px; vertical-align: 0; }
.tests-line { margin-top: 10px; font-size: 13px; color: var(--muted); }
.tests-line .v-pass, .tests-line .v-fail, .tests-line .v-inconclusive { color: var(--v); font-weight: 600; }
table.levels { width: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: 13px; }
table.levels th, table.levels td { padding: 4px 5px; border-bottom: 1px solid var(--line); text-align: right; }
table.levels tr:last-child td { border-bottom: 0; }
table.levels th:first-child, table.levels td:first-child { text-align: left; padding-left: 0; }
table.levels thead th .dot { width: 7px; height: 7px; margin-right: 4px; }
table.levels thead th { white-space: nowrap; cursor: help; font-size: 10.5px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); font-weight: 600; vertical-align: bottom; line-height: 1.2; }
table.levels td.z { color: var(--muted); opacity: .55; }
table.levels td.hot { color: var(--fail); font-weight: 700; }
.caps { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 6px; }
.caps li { font-size: 12px; padding: 1px 9px; border-radius: 12px; border: 1px solid var(--line); color: var(--muted); cursor: help; }
.caps li.on { color: var(--pass); background: var(--pass-bg); border-color: transparent; }
.caps-note { font-size: 12px; color: var(--muted); margin: 10px 0 0; }

/* toolbar */
.toolbar { position: sticky; top: 0; z-index: 5; background: color-mix(in srgb, var(--bg) 88%, transparent); backdrop-filter: blur(6px); border-bottom: 1px solid var(--line); margin-top: 20px; }
.toolbar .wrap { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 12px; padding-top: 10px; padding-bottom: 10px; }
.group { display: flex; flex-wrap: wrap; gap: 6px; }
.chip { font: inherit; font-size: 13px; cursor: pointer; color: var(--text); background: var(--panel); border: 1px solid var(--line); border-radius: 16px; padding: 3px 11px; display: inline-flex; align-items: center; gap: 2px; }
.chip b { font-weight: 600; margin-left: 4px; font-variant-numeric: tabular-nums; color: var(--muted); }
.chip:hover { border-color: var(--v, var(--accent)); }
.chip[aria-pressed="true"] { background: var(--vbg, var(--soft)); border-color: var(--v, var(--accent)); box-shadow: inset 0 0 0 1px var(--v, var(--accent)); }
.sep { width: 1px; align-self: stretch; background: var(--line); }
.search { flex: 1 1 150px; display: flex; align-items: center; gap: 8px; }
.search input { flex: 1; min-width: 0; font: inherit; color: var(--text); background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 6px 10px; }
.search input:focus { outline: 2px solid var(--accent); outline-offset: -1px; }
.link-button { font: inherit; font-size: 13px; background: none; border: 0; color: var(--accent); cursor: pointer; padding: 2px 4px; }
#shown { font-size: 12px; white-space: nowrap; }

/* sections */
main { padding-bottom: 40px; }
.block-title { display: flex; align-items: baseline; gap: 10px; margin: 28px 0 12px; }
.block-title h2 { font-size: 19px; font-weight: 650; }
.count { font-size: 12px; font-weight: 600; padding: 1px 8px; border-radius: 10px; background: var(--vbg, var(--soft)); color: var(--v, var(--muted)); }
.hint { color: var(--muted); margin: -6px 0 12px; }
.badge { display: inline-block; min-width: 62px; text-align: center; font-size: 12px; font-weight: 600; padding: 1px 8px; border-radius: 10px; color: var(--v); background: var(--vbg); white-space: nowrap; }
a.badge:hover { text-decoration: none; box-shadow: inset 0 0 0 1px var(--v); }
.lvl { display: inline-block; font-size: 10.5px; font-weight: 700; letter-spacing: .05em; padding: 0 6px; border-radius: 4px; border: 1px solid var(--line); color: var(--muted); }
.lvl-MUST { color: var(--text); border-color: var(--text); }
.lvl-MAY { border-style: dashed; }
.rid { font-family: var(--mono); font-size: 12.5px; font-weight: 600; color: var(--text); white-space: nowrap; }
.notice { border-left: 4px solid var(--err); background: var(--err-bg); padding: 10px 14px; border-radius: 6px; margin-top: 20px; }
.notice ul { margin: 6px 0 0; padding-left: 18px; }

/* failures */
details.failure { background: var(--panel); border: 1px solid var(--line); border-left: 4px solid var(--fail); border-radius: 8px; margin-bottom: 10px; box-shadow: var(--shadow); }
details.failure > summary { list-style: none; cursor: pointer; padding: 12px 16px 12px 40px; position: relative; display: grid; gap: 4px; }
details.failure > summary::-webkit-details-marker { display: none; }
details.failure > summary::before { content: ""; position: absolute; left: 17px; top: 19px; border: 5px solid transparent; border-left: 7px solid var(--muted); transition: transform .12s; transform-origin: 3px 5px; }
details.failure[open] > summary::before { transform: rotate(90deg); }
details.failure > summary:hover { background: var(--soft); border-radius: 8px; }
.f-head { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; }
.f-stmt { font-size: 15px; font-weight: 500; }
.f-meta { font-size: 12.5px; color: var(--muted); }
.f-body { padding: 0 16px 16px 40px; }
.case { border-top: 1px solid var(--line); padding-top: 14px; margin-top: 4px; display: grid; gap: 12px; }
.case + .case { margin-top: 16px; }
.case h4 { font-size: 13.5px; font-weight: 600; }
.case h4 .muted { font-weight: 400; }
.k { font-size: 11px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); font-weight: 600; margin-bottom: 4px; display: flex; align-items: center; gap: 8px; }
.msg pre { background: var(--fail-bg); border-color: transparent; color: var(--text); }
.diff { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 10px; }
.diff .exp pre { border-left: 3px solid var(--pass); }
.diff .rec pre { border-left: 3px solid var(--fail); }
.copy { font: inherit; font-size: 11px; text-transform: none; letter-spacing: 0; cursor: pointer; color: var(--accent); background: var(--panel); border: 1px solid var(--line); border-radius: 5px; padding: 0 7px; }
.copy.done { color: var(--pass); border-color: var(--pass); }
pre.cmd { border-left: 3px solid var(--accent); }
.exchanges { list-style: none; margin: 0; padding: 0; display: grid; gap: 10px; }
.ex-head { display: flex; align-items: center; gap: 8px; font-size: 12.5px; margin-bottom: 4px; }
.status { font-family: var(--mono); font-weight: 700; font-size: 12px; padding: 0 6px; border-radius: 4px; background: var(--soft); }
.status.s2 { color: var(--pass); background: var(--pass-bg); }
.status.s4 { color: var(--skip); background: var(--skip-bg); }
.status.s5, .status.s0 { color: var(--fail); background: var(--fail-bg); }
.ex-body { margin-top: 6px; border-left: 3px solid var(--line); }
.ex-body.s2 { border-left-color: var(--pass); } .ex-body.s4 { border-left-color: var(--skip); } .ex-body.s5, .ex-body.s0 { border-left-color: var(--fail); }
details.older > summary { cursor: pointer; color: var(--accent); font-size: 12.5px; margin: 4px 0; }

/* implementation-defined points */
table.choices { width: 100%; border-collapse: collapse; table-layout: fixed; background: var(--panel); border: 1px solid var(--line); border-radius: 10px; box-shadow: var(--shadow); overflow: hidden; }
table.choices th { text-align: left; font-size: 11px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); font-weight: 600; padding: 8px 12px; border-bottom: 1px solid var(--line); background: var(--soft); }
table.choices td { padding: 9px 12px; border-bottom: 1px solid var(--line); vertical-align: top; }
table.choices tr:last-child td { border-bottom: 0; }
table.choices col.c-point { width: 40%; } table.choices col.c-id { width: 25%; }
table.choices .rid { white-space: normal; overflow-wrap: anywhere; }
table.choices .stmt-sub b { font-weight: 600; color: var(--text); margin-right: 4px; }
.point { font-weight: 600; }
.values { margin: 0; padding: 0; list-style: none; }
.values li + li { margin-top: 4px; }
.values + .stmt-sub { margin-top: 6px; }
.values .value { font-family: var(--mono); font-size: 12.5px; font-weight: 600; }

/* traceability matrix */
.spec-section { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; box-shadow: var(--shadow); margin-bottom: 14px; overflow: hidden; }
.spec-section > header { display: flex; align-items: center; gap: 12px; flex-wrap: wrap; padding: 11px 16px; background: var(--soft); border-bottom: 1px solid var(--line); }
.spec-section h3 { font-size: 15px; font-weight: 650; }
.minibar { display: flex; width: 120px; height: 6px; border-radius: 3px; overflow: hidden; background: var(--line); }
.minibar span { background: var(--v); }
.sec-counts { font-size: 12px; color: var(--muted); margin-left: auto; display: flex; gap: 10px; }
table.matrix { width: 100%; border-collapse: collapse; table-layout: fixed; }
table.matrix .rid { white-space: normal; overflow-wrap: anywhere; }
table.matrix th { text-align: left; font-size: 11px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); font-weight: 600; padding: 8px 12px; border-bottom: 1px solid var(--line); }
table.matrix td { padding: 9px 12px; border-bottom: 1px solid var(--line); vertical-align: top; }
table.matrix tr:last-child td { border-bottom: 0; }
table.matrix tr.row { box-shadow: inset 3px 0 0 transparent; }
table.matrix tr.row[data-verdict="fail"] { box-shadow: inset 3px 0 0 var(--fail); }
table.matrix tr.row:target { background: var(--vbg); }
table.matrix col.c-id { width: 25%; } table.matrix col.c-lvl { width: 84px; } table.matrix col.c-v { width: 126px; } table.matrix col.c-t { width: 27%; }
.stmt-sub { font-size: 12px; color: var(--muted); margin-top: 2px; }
.reason { font-size: 12.5px; color: var(--v); margin-top: 3px; }
.obs { margin: 4px 0 0; padding: 0; list-style: none; font-size: 12.5px; color: var(--muted); }
.obs li::before { content: "◦ "; }
.obs li.warning { color: var(--skip); }
.tests { margin: 0; padding: 0; list-style: none; font-size: 12.5px; }
.tests li { padding-left: 16px; text-indent: -16px; }
.ts { display: inline-block; width: 16px; text-indent: 0; font-weight: 700; }
.ts-passed { color: var(--pass); } .ts-failed { color: var(--fail); } .ts-inconclusive { color: var(--inc); } .ts-skipped { color: var(--muted); }
.empty { text-align: center; color: var(--muted); padding: 30px; border: 1px dashed var(--line); border-radius: 10px; }

/* tests */
details.all-tests { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; box-shadow: var(--shadow); }
details.all-tests > summary { cursor: pointer; padding: 12px 16px; font-weight: 600; }
table.tests-table { width: 100%; border-collapse: collapse; font-size: 13px; }
table.tests-table th, table.tests-table td { text-align: left; padding: 7px 12px; border-top: 1px solid var(--line); vertical-align: top; }
table.tests-table th { font-size: 11px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); }
table.tests-table td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
footer { color: var(--muted); font-size: 12px; padding: 24px 0 40px; border-top: 1px solid var(--line); margin-top: 28px; }

@media (max-width: 900px) {
  .panels { grid-template-columns: 1fr; }
  .cards { grid-template-columns: repeat(3, minmax(0, 1fr)); }
  .diff { grid-template-columns: 1fr; }
  table.matrix col.c-t { width: auto; }
}
@media print {
  :root { color-scheme: light; --bg: #fff; --panel: #fff; --soft: #f3f5f7; --shadow: none; }
  body { font-size: 11px; }
  .cards { grid-template-columns: repeat(6, minmax(0, 1fr)); }
  .toolbar, .copy, .link-button, .brand nav { display: none !important; }
  .card { cursor: default; }
  pre { max-height: none; white-space: pre-wrap; }
  details > summary::before { display: none; }
  details::details-content { content-visibility: visible; display: contents; }
  .spec-section, details.failure, tr { break-inside: avoid; }
  .badge, .card, .bar span, .minibar span, .outcome-icon, .caps li { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
  a { color: inherit; }
}
`;
