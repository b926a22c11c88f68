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
    '| planner | operation | cold plan cache | plan cached | cold minus cached |\n|---|---|---:|---:|---:|\n',
  );
  for (const { planner, operation, coldMs, warmMs } of rows) {
    process.stdout.write(
      `| ${planner} | ${operation} | ${coldMs.toFixed(2)} | ${warmMs.toFixed(2)} | ${(coldMs - warmMs).toFixed(2)} |\n`,
    );
  }
} finally {
  await Promise.all(Object.values(subgraphs).map((subgraph) => subgraph.stop()));
}
