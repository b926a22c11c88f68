import type { RowPlan } from '../run/plan.js';
import { runClosedLoop } from './closed-loop.js';
import { runDeferLoop } from './defer-loop.js';
import type { LiveTick, LoadResult } from './load-result.js';
import { runOpenLoop } from './open-loop.js';
import { requestBody } from './queries.js';

/**
 * Drives `url` with the row's load shape for `seconds`: autocannon closed loop or our open loop;
 * an incremental (@defer) operation in a closed loop of our own that times its first part too.
 */
export function runLoad(row: RowPlan, url: string, seconds: number, onTick?: LiveTick): Promise<LoadResult> {
  const common = {
    url,
    durationSec: seconds,
    body: () => requestBody(row.query),
    headers: row.setup.headers,
    ...(onTick ? { onTick } : {}),
  };
  const accept = row.query.incrementalAccept;
  if (accept && row.load.kind === 'closed') {
    return runDeferLoop({ ...common, accept, connections: row.load.connections });
  }
  return row.load.kind === 'closed'
    ? runClosedLoop({ ...common, connections: row.load.connections })
    : runOpenLoop({ ...common, rate: row.load.rate });
}
