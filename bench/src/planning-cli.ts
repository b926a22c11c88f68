// `pnpm bench:planning [rounds]`: cold planning time per planner (bench/src/planning/cold-planning.ts),
// printed as a Markdown table.
import { startSubgraphs } from '@fedgw/test-support';
import { measureColdPlanning } from './planning/cold-planning.js';

const rounds = Number(process.argv[2] ?? 50);
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
