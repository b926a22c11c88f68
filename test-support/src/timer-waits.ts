// Finds every place test code suspends on a timer (docs/testing.md, "Waiting"): a promise a
// `setTimeout` resolves, `node:timers/promises`' setTimeout or `scheduler.wait`, a helper whose
// body is one of those (`const sleep = (ms) => new Promise(…setTimeout…)`), and test-support's
// `fixedWait`. Each must say, in a comment on its line or the line above, which kind it is:
//
//   // fixed wait: <why no event exists>     counted against the budget
//   // poll: <the condition re-checked>      the interval of a loop that ends when a condition holds
//   // deadline: <what it bounds>            raced against an event; reaching it is a failure
//   // latency: <what it simulates>          a fake dependency's answer time, which the test waits on
//
// It reads text, not a syntax tree: a wait written some other way is not found (the test beside
// it shows which ways are).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export type TimerWaitKind = 'fixed wait' | 'poll' | 'deadline' | 'latency';

export interface TimerWait {
  /** Relative to the root scanned. */
  file: string;
  /** 1-based. */
  line: number;
  text: string;
  /** `undefined` when no comment says which kind it is. */
  kind: TimerWaitKind | undefined;
  /** The comment's text after `kind:`. */
  reason: string;
}

/** The folders of test code, relative to the repository root. */
export const TEST_CODE_DIRS = [
  'gateway/test',
  'adapters/test',
  'server/test',
  'subgraphs/test',
  'bench/test',
  'tests',
  'test-support/src',
] as const;

const SOURCE = /\.(?:ts|mts|cts|js|mjs|cjs)$/;
const KIND = /\/\/\s*(fixed wait|poll|deadline|latency):\s*(.*)$/;
/** `new Promise((resolve) => setTimeout(resolve, …))`, any spelling of the resolver. */
const TIMER_PROMISE =
  /new Promise\s*(?:<[^>]*>)?\(\s*\(?\s*(\w+)\s*\)?\s*(?::[^=]*)?=>\s*\{?\s*setTimeout\(\s*\1\s*[,)]/;
/** `const sleep = (ms) => new Promise(…setTimeout…)` or `function sleep(ms) { return new Promise(…` */
const HELPER =
  /(?:(?:const|let)\s+(\w+)\s*=\s*(?:async\s*)?(?:<[^>]*>)?\([^)]*\)\s*(?::[^=]*)?=>|function\s+(\w+)\s*\([^)]*\)[^{]*\{\s*return)\s*new Promise/;
/** test-support's helpers that wait on a timer (`settle` waited a set time before fixedWait replaced it). */
const SUPPORT_WAITS = ['fixedWait', 'settle'];
const TIMERS_PROMISES = /import\s*\{([^}]*)\}\s*from\s*['"](?:node:)?timers\/promises['"]/;

function sourceFiles(root: string, dir: string): string[] {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(root, path);
    return SOURCE.test(entry.name) ? [path] : [];
  });
}

/** The timer waits in one file's text. */
export function timerWaitsIn(file: string, text: string): TimerWait[] {
  const lines = text.split('\n');
  // Names that, called, wait on a timer: timers/promises' setTimeout under any alias, helpers
  // built on a timer promise, and test-support's own.
  const names = new Set<string>();
  const fromSupport = text.match(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*['"]@fedgw\/test-support['"]/)?.[1] ?? '';
  for (const name of SUPPORT_WAITS) if (new RegExp(`\\b${name}\\b`).test(fromSupport)) names.add(name);
  const fromOwn = text.match(/import\s*\{([^}]*)\}\s*from\s*['"]\.\/(?:eventually|waits)\.js['"]/)?.[1] ?? '';
  for (const name of SUPPORT_WAITS) if (new RegExp(`\\b${name}\\b`).test(fromOwn)) names.add(name);
  const imported = text.match(TIMERS_PROMISES)?.[1] ?? '';
  for (const part of imported.split(',')) {
    const [name, alias] = part.trim().split(/\s+as\s+/);
    if (name === 'setTimeout') names.add((alias ?? name).trim());
  }
  const helperLines = new Set<number>();
  lines.forEach((line, index) => {
    const body = `${line} ${lines[index + 1] ?? ''}`;
    const helper = body.match(HELPER);
    if (helper && TIMER_PROMISE.test(body)) {
      names.add((helper[1] ?? helper[2]) as string);
      helperLines.add(index);
      if (!TIMER_PROMISE.test(line)) helperLines.add(index + 1); // the promise is on the next line
    }
  });
  const call = new RegExp([...[...names].map((name) => `(?<![\\w.])${name}\\(`), '\\bscheduler\\.wait\\('].join('|'));
  const found: TimerWait[] = [];
  lines.forEach((line, index) => {
    const code = line.replace(/\/\/.*$/, '');
    if (/^\s*\*|^\s*\/\*/.test(line)) return; // a doc comment naming a helper
    const isWait =
      (TIMER_PROMISE.test(code) && !helperLines.has(index)) ||
      (call.test(code) && !/^\s*(?:export\s+)?(?:async\s+)?function\s/.test(code) && !helperLines.has(index));
    if (!isWait) return;
    const said = line.match(KIND) ?? lines[index - 1]?.match(KIND) ?? null;
    found.push({
      file,
      line: index + 1,
      text: line.trim(),
      kind: said?.[1] as TimerWaitKind | undefined,
      reason: said?.[2]?.trim() ?? '',
    });
  });
  return found;
}

/** The scanner's own test: its examples of every way to wait are text, not waits. */
const EXAMPLES = new Set(['tests/layering/fixed-waits.test.ts']);

/** The timer waits in the test code under `root` (a checkout of this repository). */
export function findTimerWaits(root: string, dirs: readonly string[] = TEST_CODE_DIRS): TimerWait[] {
  return dirs
    .flatMap((dir) => sourceFiles(root, dir))
    .filter((path) => !EXAMPLES.has(path))
    .sort()
    .flatMap((path) => timerWaitsIn(relative(root, join(root, path)), readFileSync(join(root, path), 'utf8')));
}
