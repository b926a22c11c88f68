// `node scripts/count-fixed-waits.mjs [--list]` (after `pnpm build`): how many timer waits the test
// code has, by kind (docs/testing.md, "Waiting"); `--list` names each. tests/docs/fixed-waits.test.ts
// holds the budget.
import { fileURLToPath } from 'node:url';
import { findTimerWaits } from '../test-support/dist/timer-waits.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const waits = findTimerWaits(root);
const byKind = new Map();
for (const wait of waits) byKind.set(wait.kind ?? 'unmarked', (byKind.get(wait.kind ?? 'unmarked') ?? 0) + 1);
process.stdout.write(
  `${waits.length} timer waits in test code: ${[...byKind].map(([kind, n]) => `${n} ${kind}`).join(', ')}\n`,
);
if (process.argv.includes('--list')) {
  for (const wait of waits) {
    process.stdout.write(
      `${wait.kind ?? 'unmarked'}\t${wait.file}:${wait.line}\t${wait.text}${wait.reason ? `\t(${wait.reason})` : ''}\n`,
    );
  }
}
