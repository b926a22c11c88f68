import * as v from 'valibot';
import {
  isRedisUrl,
  RATE_LIMIT_DEFAULTS,
  RATE_LIMIT_KEYS,
  RATE_LIMIT_VALUES,
} from '../../plugins/rate-limit/options.js';
import { custom, oneOf, readValue, secret, type ValueParser, withDefault } from '../../settings/kinds.js';
import { RATE_LIMIT_COSTS } from '../choices.js';

import { defineFields } from './spec.js';

export const redisUrl: ValueParser<string> = secret(
  v.pipe(
    v.string(),
    v.check((raw: string) => isRedisUrl(raw)),
  ),
  'expected a redis:// or rediss:// URL',
);

/** `RATE_LIMIT_KEY=operation` existed once; it was removed as unsafe (see REMOVED_SETTINGS). */
const OPERATION_KEY_REMOVED =
  'removed: operation names are chosen by the client, so each new name got a fresh bucket; ' +
  'use ip, sub, api-key or global';

/** The `rate-limit` plugin's settings: the budget, its window and key, its cost, and where counts live. */
export const RATE_LIMIT_PLUGIN_FIELDS = defineFields([
  {
    key: 'rateLimit.max',
    formerKey: 'rateLimitMax',
    env: 'RATE_LIMIT_MAX',
    parse: RATE_LIMIT_VALUES.max,
    meaning: '`rate-limit`: requests (cost units) per window',
    feature: 'rate-limit',
  },
  {
    key: 'rateLimit.windowMs',
    formerKey: 'rateLimitWindowMs',
    env: 'RATE_LIMIT_WINDOW',
    parse: RATE_LIMIT_VALUES.windowMs,
    meaning: '`rate-limit`: fixed window (`500ms`, `60s`, `5m`)',
    docDefault: '`60s`',
    feature: 'rate-limit',
  },
  {
    key: 'rateLimit.keyBy',
    formerKey: 'rateLimitKey',
    env: 'RATE_LIMIT_KEY',
    // The plugin's schema and default, and a clear error for the removed `operation`.
    parse: withDefault(
      custom(`one of ${RATE_LIMIT_KEYS.join(' | ')}`, (raw) =>
        raw === 'operation' ? { ok: false, message: OPERATION_KEY_REMOVED } : readValue(RATE_LIMIT_VALUES.keyBy, raw),
      ),
      RATE_LIMIT_DEFAULTS.keyBy,
    ),
    meaning:
      '`rate-limit`: `ip`, `sub`, `api-key` or `global`; see [Rate limiting](plugins.md#rate-limiting-rate-limit)',
    feature: 'rate-limit',
  },
  {
    key: 'rateLimit.cost',
    formerKey: 'rateLimitCost',
    env: 'RATE_LIMIT_COST',
    parse: withDefault(oneOf(RATE_LIMIT_COSTS), 'request'),
    meaning:
      '`rate-limit`: `request` (1 each) or `estimated` (the demand-control estimate, at least 1; 1 for a request refused over `MAX_COST`)',
    feature: 'rate-limit',
  },
  {
    key: 'rateLimit.failureMode',
    formerKey: 'rateLimitFailureMode',
    env: 'RATE_LIMIT_FAILURE_MODE',
    parse: RATE_LIMIT_VALUES.failureMode,
    meaning: '`rate-limit`: when Redis is down, `open` lets requests through, `closed` answers 503',
    feature: 'rate-limit',
  },
  {
    key: 'rateLimit.redisUrl',
    formerKey: 'redisUrl',
    env: 'GATEWAY_REDIS_URL',
    formerEnv: ['REDIS_URL'],
    parse: redisUrl,
    meaning: '`rate-limit`: counts in this Redis (`redis://`, `rediss://`) instead of memory; a secret, never logged',
    feature: 'rate-limit',
  },
]);
