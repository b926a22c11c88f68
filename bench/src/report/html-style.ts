/** The report's only stylesheet, inlined: system fonts, no external resources. */
export const REPORT_CSS = `
:root { color-scheme: light; --ink: #1d2433; --muted: #5f6b7a; --line: #d8dde5; --bg-soft: #f5f7fa;
  --good: #1e7a3c; --bad: #b42318; --warn-bg: #fff4d6; --warn: #8a5a00; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: var(--ink); background: #fff; }
header, main, footer { max-width: 1400px; margin: 0 auto; padding: 0 24px; }
header { padding-top: 24px; border-bottom: 1px solid var(--line); padding-bottom: 16px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 21px; margin: 0 0 8px; }
h3 { font-size: 16px; margin: 24px 0 8px; }
.subtitle { color: var(--muted); margin: 0 0 16px; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0 0 12px; }
.facts dt { font-weight: 600; color: var(--muted); }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.env { display: grid; grid-template-columns: 1fr 1fr; gap: 0 32px; }
@media (max-width: 900px) { .env { grid-template-columns: 1fr; } }
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
  padding: 8px 12px; margin: 12px 0; }
.flags p { margin: 2px 0; }
figure { margin: 12px 0; }
svg.chart { display: block; width: 100%; max-width: 960px; height: auto; font-family: inherit; }
svg .chart-title { font-size: 15px; font-weight: 600; fill: var(--ink); }
svg .chart-note { font-size: 12px; fill: var(--muted); }
svg .label, svg .legend { font-size: 12.5px; fill: var(--ink); }
svg .value { font-size: 12px; fill: var(--ink); font-variant-numeric: tabular-nums; }
svg .tick { font-size: 11.5px; fill: var(--muted); font-variant-numeric: tabular-nums; }
svg .axis-label { font-size: 12px; fill: var(--muted); }
svg .no-data { font-size: 12.5px; font-style: italic; fill: var(--muted); }
svg .status-failed, svg .status-wrong-answer { fill: var(--bad); }
svg .grid { stroke: #eceff3; stroke-width: 1; }
svg .axis { stroke: #9aa4b1; stroke-width: 1; }
svg .rate-mark { stroke: var(--ink); stroke-width: 2; }
.table-wrap { overflow-x: auto; margin: 0 0 8px; }
table { border-collapse: collapse; font-size: 13px; min-width: 60%; }
caption { text-align: left; font-weight: 600; padding: 6px 0; }
th, td { padding: 4px 8px; border-bottom: 1px solid var(--line); text-align: left; }
th { background: var(--bg-soft); font-weight: 600; vertical-align: bottom; min-width: 4.5em; }
td { white-space: nowrap; vertical-align: top; }
td.tone-bad, td.tone-muted { white-space: normal; min-width: 14em; max-width: 26em; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tbody tr:nth-child(even) td { background: #fafbfc; }
td.tone-good { color: var(--good); font-weight: 600; }
td.tone-bad { color: var(--bad); }
td.tone-warn { color: var(--warn); background: var(--warn-bg) !important; font-weight: 600; }
td.tone-muted { color: var(--muted); }
td.tone-seed { color: #6a5d7b; background: #f6f3fa !important; }
.table-notes { color: var(--muted); font-size: 13px; margin: 0 0 16px; }
.table-notes p { margin: 2px 0; }
footer { color: var(--muted); font-size: 13px; padding-top: 16px; padding-bottom: 32px; }
`;
