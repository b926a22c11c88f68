import type { RowPlan } from '../run/plan.js';
import { runClosedLoop } from './closed-loop.js';
import type { LiveTick, LoadResult } from './load-result.js';
import { runOpenLoop } from './open-loop.js';
import { requestBody } from './queries.js';

/** Drives `url` with the row's load shape for `seconds`: autocannon closed loop or our open loop. */
export function runLoad(row: RowPlan, url: string, seconds: number, onTick?: LiveTick): Promise<LoadResult> {
  const common = {
    url,
    durationSec: seconds,
    body: () => requestBody(row.query),
    headers: row.setup.headers,
    ...(onTick ? { onTick } : {}),
  };
  return row.load.kind === 'closed'
    ? runClosedLoop({ ...common, connections: row.load.connections })
    : runOpenLoop({ ...common, rate: row.load.rate });
}
