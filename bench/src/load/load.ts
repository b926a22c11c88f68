import type { RowPlan } from '../run/plan.js';
import { runClosedLoop } from './closed-loop.js';
import { runDeferLoop } from './defer-loop.js';
import type { LiveTick, LoadResult } from './load-result.js';
import { runOpenLoop } from './open-loop.js';
import { requestBody } from './queries.js';
import type { LoadPhase } from './workload.js';

/**
 * Drives `url` with the row's load shape for `seconds`: autocannon closed loop or our open loop;
 * an incremental (@defer) operation in a closed loop of our own that times its first part too;
 * a setup's workload (§G) replays its seeded sequence for `phase`.
 */
export function runLoad(
  row: RowPlan,
  url: string,
  seconds: number,
  onTick?: LiveTick,
  phase: LoadPhase = 'measure',
): Promise<LoadResult> {
  const common = {
    url,
    durationSec: seconds,
    body: () => requestBody(row.query),
    headers: row.setup.headers,
    ...(onTick ? { onTick } : {}),
  };
  const workload = row.setup.workload;
  if (workload) {
    if (row.load.kind !== 'closed' || row.query.incrementalAccept) {
      throw new Error(`${row.variant}: a workload runs in a closed loop of single answers only`);
    }
    return runClosedLoop({ ...common, connections: row.load.connections, request: workload.stream(phase) });
  }
  const accept = row.query.incrementalAccept;
  if (accept && row.load.kind === 'closed') {
    return runDeferLoop({ ...common, accept, connections: row.load.connections });
  }
  return row.load.kind === 'closed'
    ? runClosedLoop({ ...common, connections: row.load.connections })
    : runOpenLoop({ ...common, rate: row.load.rate });
}
