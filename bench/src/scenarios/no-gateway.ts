import type { RowResult } from '../results.js';
import { GATEWAY_MOUNTS } from '../targets.js';

/** The row a plugin scenario shows when no Node gateway mount was selected. */
export function noGatewayRow(variant: string): RowResult {
  return {
    target: GATEWAY_MOUNTS[0],
    variant,
    status: 'skipped',
    message: `needs a Node gateway target (${GATEWAY_MOUNTS.join(', ')}) in --targets`,
  };
}
