import type { RawAnswer } from './raw-answer.js';

/**
 * The one part of an answer the two executors may word differently: the frames of
 * `extensions.stacktrace` (sent because the pair runs with MASK_ERRORS=false) name the source
 * files that raised the error, which is the executor itself. Its first line (error class and
 * message) is kept and compared; the `at …` lines after it are dropped. Matched on the JSON
 * text, so every other byte is compared as sent: an escaped quote inside a string can never
 * start this pattern.
 */
const STACK_FRAMES = /"stacktrace":\[("(?:[^"\\]|\\.)*")(?:,"(?:[^"\\]|\\.)*")*\]/g;

/** The body with stack frames dropped; latin1 maps each byte to one character and back. */
export function withoutStackFrames(body: Buffer): Buffer {
  return Buffer.from(body.toString('latin1').replace(STACK_FRAMES, '"stacktrace":[$1]'), 'latin1');
}

/**
 * Undefined when both answers have the same status, content-type and body bytes (stack frames
 * aside), else a description of the first difference: where in the JSON, and the bytes around it.
 */
export function differenceBetween(
  expected: RawAnswer,
  actual: RawAnswer,
  names = ['apollo', 'lean'],
): string | undefined {
  const [a, b] = names as [string, string];
  const lines: string[] = [];
  if (expected.status !== actual.status) lines.push(`status: ${a} ${expected.status}, ${b} ${actual.status}`);
  if (expected.contentType !== actual.contentType) {
    lines.push(`content-type: ${a} ${expected.contentType}, ${b} ${actual.contentType}`);
  }
  const left = withoutStackFrames(expected.body);
  const right = withoutStackFrames(actual.body);
  if (!left.equals(right)) {
    let at = 0;
    while (at < left.length && at < right.length && left[at] === right[at]) at++;
    const window = (body: Buffer) =>
      body
        .subarray(Math.max(0, at - 80), at + 80)
        .toString('utf8')
        .replace(/\n/g, '\\n');
    lines.push(
      `body: first different byte at ${at} (${a} ${left.length} bytes, ${b} ${right.length} bytes)` +
        `${jsonPathNote(left, right)}\n  ${a}: …${window(left)}…\n  ${b}: …${window(right)}…`,
    );
  }
  return lines.length > 0 ? lines.join('\n') : undefined;
}

/** ", first at data.topProducts[1].reviews" when both bodies are JSON, to read the diff by. */
function jsonPathNote(left: Buffer, right: Buffer): string {
  try {
    const path = firstDifferentPath(JSON.parse(left.toString('utf8')), JSON.parse(right.toString('utf8')), '');
    return path === undefined
      ? ', same JSON values (spacing or escapes differ)'
      : `, first at ${path.replace(/^\./, '') || '(root)'}`;
  } catch {
    return '';
  }
}

/** The path of the first value that differs, key order included (bytes depend on it). */
function firstDifferentPath(left: unknown, right: unknown, path: string): string | undefined {
  if (Array.isArray(left) && Array.isArray(right)) {
    for (let i = 0; i < Math.max(left.length, right.length); i++) {
      const found = firstDifferentPath(left[i], right[i], `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (isObject(left) && isObject(right)) {
    const leftKeys = Object.keys(left);
    const rightKeys = Object.keys(right);
    for (let i = 0; i < Math.max(leftKeys.length, rightKeys.length); i++) {
      const key = leftKeys[i] ?? rightKeys[i] ?? '';
      if (leftKeys[i] !== rightKeys[i]) return `${path}.${key} (keys: ${leftKeys} vs ${rightKeys})`;
      const found = firstDifferentPath(left[key], right[key], `${path}.${key}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return Object.is(left, right) ? undefined : path;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
