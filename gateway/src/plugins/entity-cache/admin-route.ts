import { createHash, timingSafeEqual } from 'node:crypto';
import type { AdminAnswer, AdminRoute } from '../../plugin-sdk/index.js';
import { invalidationTarget } from './invalidation.js';
import type { InvalidationResult } from './pending-invalidations.js';
import type { InvalidationTarget } from './store.js';

export const INVALIDATE_PATH = '/entity-cache/invalidate';
const MAX_ITEMS = 100;

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * `POST /entity-cache/invalidate` on the metrics listener, for callers with the bearer token:
 * a JSON list of Apollo Router invalidation items (`{ kind: 'subgraph' | 'type' | 'entity',
 * subgraph, type?, key? }`), applied all or none (one malformed item refuses the request).
 * 200 `{ invalidated }` when the store took every item; 202 `{ invalidated, pending }` when it
 * could not take `pending` of them now (Redis away): those are retried until it does.
 */
export function invalidationRoute(
  token: string,
  invalidate: (target: InvalidationTarget) => Promise<InvalidationResult>,
): AdminRoute {
  const expected = sha256(token);
  return {
    method: 'POST',
    path: INVALIDATE_PATH,
    async handle({ headers, body }): Promise<AdminAnswer> {
      const given =
        typeof headers.authorization === 'string' ? headers.authorization.match(/^Bearer (.+)$/)?.[1] : undefined;
      // Digests compared in constant time: the token's length and prefix do not leak through timing.
      if (given === undefined || !timingSafeEqual(sha256(given), expected)) {
        return { status: 401, body: { error: 'a valid bearer token is required' } };
      }
      let items: unknown;
      try {
        items = JSON.parse(body);
      } catch {
        return { status: 400, body: { error: 'the body is not JSON' } };
      }
      const list = Array.isArray(items) ? items : [items];
      if (list.length === 0 || list.length > MAX_ITEMS) {
        return { status: 400, body: { error: `expected 1 to ${MAX_ITEMS} invalidation items` } };
      }
      const targets = list.map(invalidationTarget);
      const bad = targets.indexOf(undefined);
      if (bad >= 0) {
        return {
          status: 400,
          body: { error: `item ${bad}: expected { kind: subgraph | type | entity, subgraph, type?, key? }` },
        };
      }
      let count = 0;
      let pending = 0;
      for (const target of targets as InvalidationTarget[]) {
        const { dropped, queued } = await invalidate(target);
        count += dropped;
        if (queued) pending++;
      }
      if (pending > 0) return { status: 202, body: { invalidated: count, pending } };
      return { status: 200, body: { invalidated: count } };
    },
  };
}
