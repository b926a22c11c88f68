// What a stalled standard output costs the gateway's log destination, with and without a cap
// (ADR 047). A child logs LINES lines of 1 KB through pino.destination (sonic-boom, as
// gateway/src/log-destination.ts builds it) to a pipe this parent never reads, then reports its
// heap and RSS after a collection. Usage:
//   node_modules/.bin/node docs/results/2026-11-28-log-queue-cap/stalled-stdout.mjs
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const LINES = Number(process.env.LINES ?? 200_000);
// pino resolved from the gateway package, as the gateway loads it.
const pinoPath = createRequire(new URL('../../../gateway/package.json', import.meta.url)).resolve('pino');

const child = (maxLength) => `
  const pino = require(${JSON.stringify(pinoPath)});
  let dropped = 0;
  const dest = pino.destination({ dest: 1, minLength: 4096, maxLength: ${maxLength} });
  dest.on('drop', () => dropped++);
  const logger = pino({}, dest);
  const before = process.memoryUsage();
  const filler = 'x'.repeat(1000);
  for (let i = 0; i < ${LINES}; i++) logger.info({ filler }, 'line');
  globalThis.gc();
  const after = process.memoryUsage();
  process.stderr.write(JSON.stringify({
    maxLength: ${maxLength},
    lines: ${LINES},
    dropped,
    heapGrowthMb: Math.round((after.heapUsed - before.heapUsed) / 1e6),
    rssMb: Math.round(after.rss / 1e6),
  }) + '\\n');
`;

for (const maxLength of [0, 1024 * 1024]) {
  const run = spawn(process.execPath, ['--expose-gc', '-e', child(maxLength)], { stdio: ['ignore', 'pipe', 'pipe'] });
  run.stdout.pause(); // never read: the pipe fills, then sonic-boom holds what is left
  // The child cannot exit on its own: pino's exit hook would write what it holds to the stalled pipe.
  let report = '';
  await new Promise((resolve) =>
    run.stderr.on('data', (chunk) => {
      report += chunk;
      if (report.endsWith('\n')) resolve();
    }),
  );
  run.kill('SIGKILL');
  process.stdout.write(report);
}
