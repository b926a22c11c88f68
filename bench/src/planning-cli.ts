// `pnpm bench:planning [rounds]`: cold planning time per planner (bench/src/planning/cold-planning.ts),
// printed as a Markdown table.

import { readFileSync } from 'node:fs';
import { startSubgraphs } from '@fedgw/test-support';
import { measureColdPlanning, OPERATIONS } from './planning/cold-planning.js';
import { measurePlannerCpu } from './planning/planner-cpu.js';

const rounds = Number(process.argv[2] ?? 50);
const sdl = readFileSync(new URL('../../supergraph.graphql', import.meta.url), 'utf8');
const cpu = await measurePlannerCpu(sdl, OPERATIONS, rounds);
process.stdout.write(`In process, CPU time per cold plan (ms), median of ${rounds}, Node ${process.version}\n\n`);
process.stdout.write('| operation | apollo | hive (plan and translation) |\n|---|---:|---:|\n');
for (const { operation, apolloMs, hiveMs } of cpu) {
  process.stdout.write(`| ${operation} | ${apolloMs.toFixed(2)} | ${hiveMs.toFixed(2)} |\n`);
}
process.stdout.write('\nThrough a gateway (fastify), wall time per request (ms):\n\n');
const subgraphs = await startSubgraphs();
try {
  const rows = await measureColdPlanning(subgraphs, rounds);
  process.stdout.write(`${rounds} rounds, medians (ms), Node ${process.version}\n\n`);
  process.stdout.write(
    '| operation | planner | cold plan cache | plan cached | cold minus cached, per round |\n|---|---|---:|---:|---:|\n',
  );
  for (const { planner, operation, coldMs, warmMs, planMs } of rows) {
    const cells = [operation, planner, coldMs.toFixed(2), warmMs.toFixed(2), planMs.toFixed(2)];
    process.stdout.write(`| ${cells.join(' | ')} |\n`);
  }
} finally {
  await Promise.all(Object.values(subgraphs).map((subgraph) => subgraph.stop()));
}
