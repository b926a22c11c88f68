import { fileURLToPath } from 'node:url';
import { runModuleScript } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';

// ADR 044: patches/@nestjs__common builds the console logger's Intl.DateTimeFormat at its first
// timestamp, not when @nestjs/common is imported. Building one reads ICU's locale tables (about
// 5 MB of the Node binary's pages made resident) in a gateway whose logs all go through pino.
// In a fresh process: no DateTimeFormat at import, and Nest's own logger still stamps its lines.

const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));

const SCRIPT = `
let built = 0;
const DateTimeFormat = Intl.DateTimeFormat;
Intl.DateTimeFormat = new Proxy(DateTimeFormat, { construct: (target, args) => (built++, Reflect.construct(target, args)) });
const { ConsoleLogger, Logger } = await import('@nestjs/common');
const atImport = built;
const lines = [];
process.stdout.write = ((write) => (chunk, ...rest) => (String(chunk).includes('stamped') ? (lines.push(String(chunk)), true) : write.call(process.stdout, chunk, ...rest)))(process.stdout.write);
new ConsoleLogger('Probe', { colors: false }).log('stamped once');
new ConsoleLogger('Probe', { colors: false }).log('stamped twice');
const afterLogging = built;
Logger.log('stamped by the static logger');
console.log(JSON.stringify({ atImport, afterLogging, afterStatic: built, stamps: lines.map((line) => /\\d{2}\\/\\d{2}\\/\\d{4}, \\d{1,2}:\\d{2}:\\d{2}/.test(line)) }));
`;

describe("Nest's console logger, patched", () => {
  it('builds its date formatter at the first timestamp, once, and still stamps each line', () => {
    const result = runModuleScript(SERVER_DIR, SCRIPT, { env: { LANG: 'en_US.UTF-8', TZ: 'UTC' } });
    expect(result).toEqual({
      atImport: 0,
      afterLogging: 1,
      afterStatic: 1,
      stamps: [true, true, true],
    });
  });
});
