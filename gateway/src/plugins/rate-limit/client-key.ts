import type { Identity } from '../../contract/index.js';
import type { RateLimitKey } from './options.js';

/**
 * The key a request is counted under (see `RateLimitKey`): `global`, `sub:<subject>`,
 * `api-key:<consumer>`, or `ip:<address>` (also for a caller without the identity `keyBy` names).
 * Other per-client bounds (the entity cache's write budget) key clients the same way.
 */
export function clientKey(keyBy: RateLimitKey, identity: Identity, ip: string): string {
  switch (keyBy) {
    case 'global':
      return 'global';
    case 'sub':
      if (identity.subject) return `sub:${identity.subject}`;
      break;
    case 'api-key':
      if (identity.consumer) return `api-key:${identity.consumer}`;
      break;
    case 'ip':
      break;
  }
  return `ip:${ip}`;
}
