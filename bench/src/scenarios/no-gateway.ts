import type { RowResult } from '../run/results.js';
import { GATEWAY_MOUNTS } from '../targets/targets.js';

/** The row a plugin scenario shows when it has no row: no Node gateway mount, no external in its setups. */
export function noGatewayRow(variant: string): RowResult {
  return {
    target: GATEWAY_MOUNTS[0],
    variant,
    status: 'skipped',
    message:
      `needs a Node gateway target (${GATEWAY_MOUNTS.join(', ')}) in --targets, ` +
      'or an --external name@setup=url declared with one of its setups',
  };
}
