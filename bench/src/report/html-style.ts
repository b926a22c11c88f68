/** The report's only stylesheet, inlined: system fonts, no external resources. */
export const REPORT_CSS = `
:root { color-scheme: light; --ink: #1d2433; --muted: #5f6b7a; --line: #d8dde5; --bg-soft: #f5f7fa;
  --good: #1e7a3c; --bad: #b42318; --warn-bg: #fff4d6; --warn: #8a5a00; --grid: #e6e9ee; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: var(--ink); background: #fff; overflow-wrap: break-word; }
header, main, footer { max-width: 1400px; margin: 0 auto; padding: 0 24px; }
header { padding-top: 24px; border-bottom: 1px solid var(--line); padding-bottom: 16px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 21px; margin: 0 0 8px; }
h3 { font-size: 16px; margin: 24px 0 8px; }
.subtitle { color: var(--muted); margin: 0 0 16px; }
.facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 2px 16px; margin: 0 0 12px; }
.facts dt { font-weight: 600; color: var(--muted); }
.facts dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
.env { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 0 32px; }
@media (max-width: 900px) { .env { grid-template-columns: minmax(0, 1fr); } }
.packages { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; }
.notes { margin: 4px 0 12px; padding-left: 20px; }
nav ol { display: flex; flex-wrap: wrap; gap: 6px 18px; list-style: none; padding: 0; margin: 12px 0 0; }
nav a { color: #2457a6; text-decoration: none; }
nav a:hover { text-decoration: underline; }
.how { background: var(--bg-soft); border-left: 4px solid #4e79a7; padding: 8px 12px; margin: 12px 0 0; }
.scenario { padding: 28px 0 12px; border-bottom: 1px solid var(--line); }
.scenario .desc { margin: 0 0 4px; }
.scenario .kind { color: var(--muted); margin: 0 0 12px; font-size: 14px; }
.flags { background: var(--warn-bg); color: var(--warn); border: 1px solid #f0d58c; border-radius: 6px;
  padding: 6px 12px; margin: 12px 0; }
a.mark, span.mark { color: var(--warn); font-weight: 700; text-decoration: none; white-space: nowrap; }
.warnings { background: var(--warn-bg); border: 1px solid #f0d58c; border-radius: 6px; padding: 6px 12px;
  margin: 0 0 16px; font-size: 13.5px; }
.warnings p { margin: 2px 0 4px; color: var(--warn); font-weight: 600; }
.warnings ol { margin: 0; padding-left: 0; list-style: none; }
.warnings li { margin: 2px 0; }
.warnings li:target { outline: 2px solid var(--warn); }

/* Charts: HTML text for every label, boxes placed in % of the plot area for the marks. */
.chart { margin: 16px 0 28px; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
.chart figcaption { margin: 0 0 8px; }
.chart .chart-title { font-weight: 600; font-size: 15px; }
.chart .direction { color: var(--muted); font-size: 13px; margin-left: 6px; }
.chart .caption { display: block; color: var(--muted); font-size: 13px; max-width: 90ch; }
.chart .legend { display: flex; flex-wrap: wrap; gap: 4px 16px; margin: 0 0 8px; font-size: 12.5px; color: var(--muted); }
.chart .legend .key { display: inline-flex; align-items: center; gap: 6px; }
.plot { display: grid; grid-template-columns: fit-content(14em) minmax(0, 1fr); column-gap: 10px; row-gap: 2px;
  align-items: center; font-size: 13px; }
.plot.strips.with-values { grid-template-columns: fit-content(14em) minmax(0, 1fr) max-content; }
.plot .group { grid-column: 1 / -1; font-weight: 600; font-size: 13px; margin: 10px 0 2px; }
.plot .group:first-child { margin-top: 0; }
.plot .label { overflow-wrap: anywhere; text-align: right; line-height: 1.25; padding: 1px 4px; border-radius: 3px; min-width: 0; }
.plot .label.warned { background: var(--warn-bg); }
.plot .sw { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 6px;
  vertical-align: -1px; }
.plot .track, .plot .axis, .plot .axis-title { padding: 0 var(--rr, 8px) 0 var(--rl, 8px); min-width: 0; }
.plot .track { height: 22px; }
.plot .track.no-data { height: auto; min-height: 22px; }
.plot .area { position: relative; height: 100%; }
.plot .gl { position: absolute; top: -1px; bottom: -1px; width: 1px; background: var(--grid); }
.plot .gl.ref { width: 0; border-left: 2px dashed #7d8796; background: none; }
.plot .bar { position: absolute; top: 4px; bottom: 4px; border-radius: 2px; }
.plot .bar.warned { background-image: repeating-linear-gradient(135deg, rgba(255,255,255,.6) 0 3px, transparent 3px 7px); }
.plot .value { position: absolute; top: 50%; transform: translateY(-50%); margin-left: 5px; padding: 0 2px;
  white-space: nowrap; font-size: 12px; font-variant-numeric: tabular-nums; background: rgba(255, 255, 255, .85); }
.plot .value.neg { transform: translate(-100%, -50%); margin: 0 0 0 -5px; }
.plot .status { display: block; overflow-wrap: anywhere; font-size: 12.5px; font-style: italic; line-height: 1.3; padding: 3px 0; }
.plot .status.tone-bad { color: var(--bad); }
.plot .status.tone-muted { color: var(--muted); }
.plot .axis { height: 18px; }
.plot .tick { position: absolute; top: 1px; transform: translateX(-50%); font-size: 11.5px; color: var(--muted);
  white-space: nowrap; font-variant-numeric: tabular-nums; }
.plot .axis-title { text-align: center; font-size: 12px; color: var(--muted); }
.plot .value-head { font-size: 12px; color: var(--muted); text-align: right; }
.plot .value-col { font-size: 12px; text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
.plot .whisker { position: absolute; top: calc(50% - 2px); height: 4px; background: var(--c); opacity: .4; }
.plot .tail { position: absolute; top: calc(50% - 1px); height: 0; border-top: 2px dotted var(--c); opacity: .7; }
.mk { position: absolute; top: 50%; transform: translate(-50%, -50%); --c: var(--ink); }
.mk.static { position: relative; top: auto; transform: none; display: inline-block; }
.mk.p50 { width: 10px; height: 10px; border-radius: 50%; background: var(--c); }
.mk.p90, .mk.p95 { width: 2px; height: 12px; background: var(--c); }
.mk.p95 { height: 16px; }
.mk.p99 { width: 9px; height: 9px; background: var(--c); transform: translate(-50%, -50%) rotate(45deg); }
.mk.p99.static { transform: rotate(45deg); }
.mk.max { width: 9px; height: 9px; border-radius: 50%; border: 2px solid var(--c); background: #fff; }
.panels { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 340px), 1fr)); gap: 8px 28px; }
.panel { min-width: 0; }
.panel h4, .facet-title { margin: 6px 0 6px; font-size: 13.5px; }
.facet-title { font-size: 14px; border-bottom: 1px solid var(--line); padding-bottom: 2px; }
.facet + .facet { margin-top: 14px; }

.table-wrap { margin: 0 0 8px; max-width: 100%; overflow-x: auto; }
table { border-collapse: collapse; font-size: 13px; max-width: 100%; }
caption { text-align: left; font-weight: 600; padding: 6px 0; }
th, td { padding: 4px 7px; border-bottom: 1px solid var(--line); text-align: left; }
th { background: var(--bg-soft); font-weight: 600; vertical-align: bottom; line-height: 1.25; }
td { vertical-align: top; }
td.long { overflow-wrap: anywhere; }
td:first-child:not(.long) { white-space: nowrap; }
td .msg { display: block; max-width: 28em; }
td.num { white-space: nowrap; }
td.num.tone-seed { white-space: normal; }
td.tone-bad:not(.num), td.tone-muted:not(.num) { min-width: 12em; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tbody tr:nth-child(even) td { background: #fafbfc; }
tbody tr.flagged td { background: var(--warn-bg); }
td.tone-good { color: var(--good); font-weight: 600; }
td.tone-bad { color: var(--bad); }
td.tone-warn { color: var(--warn); font-weight: 600; }
td.tone-muted { color: var(--muted); }
td.tone-seed { color: #6a5d7b; background: #f6f3fa !important; }
.table-notes { color: var(--muted); font-size: 13px; margin: 0 0 16px; max-width: 110ch; }
.table-notes p { margin: 2px 0; }
footer { color: var(--muted); font-size: 13px; padding-top: 16px; padding-bottom: 32px; }
`;
