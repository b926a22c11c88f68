// What one run of the federation audit's `test-suite` command printed, read back, and the table
// `pnpm audit:federation` prints. No code or data of the audit's own: only its output format,
// "<suite id>\n" then one character per case ("." passed, "X" failed), coloured.

// biome-ignore lint/suspicious/noControlCharactersInRegex: the audit colours its dots with ANSI escapes
const ANSI = /\u001b\[[0-9;]*m/g;

/** The cases of `suite` in `output`: a string of "." and "X", or undefined when none was printed. */
export function casesOf(output, suite) {
  const lines = output.replace(ANSI, '').split('\n');
  const at = lines.findIndex((line) => line.trim() === suite);
  if (at < 0) return undefined;
  const cases = lines
    .slice(at + 1)
    .map((line) => line.trim())
    .find((line) => line !== '');
  return cases !== undefined && /^[.X]+$/.test(cases) ? cases : undefined;
}

/** One row per suite: passed of total, and the cases when any failed (or "no result"). */
export function formatTable(title, results) {
  const rows = results.map(({ suite, cases }) => {
    if (cases === undefined) return `  ${suite.padEnd(40)} no result`;
    const passed = [...cases].filter((c) => c === '.').length;
    const marks = passed === cases.length ? '' : `  ${cases}`;
    return `  ${suite.padEnd(40)} ${`${passed}/${cases.length}`.padStart(7)}${marks}`;
  });
  const { passed, total } = totals(results);
  return [`${title}: ${passed}/${total}`, ...rows].join('\n');
}

/** Cases passed and cases in all, a suite with no result counting as one failed case. */
export function totals(results) {
  let passed = 0;
  let total = 0;
  for (const { cases } of results) {
    total += cases?.length || 1;
    passed += cases ? [...cases].filter((c) => c === '.').length : 0;
  }
  return { passed, total };
}
