import { randomBytes } from 'node:crypto';
import type { Setup, SetupKey } from './setup-types.js';

/** §H: checkout's steady stream, and batch's overload beside it (requests per second, open loop). */
export const CHECKOUT_RATE = 50;
export const BATCH_RATE = 1500;
/** Our gateway's bound: operations in flight; checkout is shed only at 3× that. */
export const SHED_MAX_IN_FLIGHT = 48;
const SHED_STEP_PERCENT = 200;
const SHARED_ADDRESS = { UNREAD_ANSWERS_MAX_PER_CLIENT: '100000', UNREAD_BYTES_MAX_PER_CLIENT: '128mb' };

/**
 * §H: our first mount with two API-key consumers, checkout-svc (the row's measured stream) and
 * batch-svc (the competing overload), with load shedding off and on; the Router as it ships
 * (it serves every client alike: it forwards neither key and needs no config for that). No
 * refusal is checked before timing: the Router's row shares the setup and checks no key.
 */
export function sheddingSetups(checkoutKey: string): Record<'shedding-off' | 'shedding-on', Setup> {
  const batchKey = randomBytes(16).toString('hex');
  const keys = {
    GATEWAY_PLUGINS: 'api-key',
    GATEWAY_API_KEYS: `checkout-svc:${checkoutKey},batch-svc:${batchKey}`,
    // Both clients reach us from one address (the harness), as behind a proxy that hides client
    // addresses: raised as the docs say for that case, so the per-address limit on unfinished
    // answers (8) does not queue checkout behind batch before any class is known.
    ...SHARED_ADDRESS,
  };
  const competing = { label: 'batch', headers: { 'x-api-key': batchKey }, rate: BATCH_RATE };
  const setup = (key: SetupKey, env: Record<string, string>, router: Setup['router']): Setup => ({
    key,
    gatewayEnv: () => ({ ...keys, ...env }),
    router,
    headers: { 'x-api-key': checkoutKey },
    competing,
  });
  return {
    'shedding-off': setup('shedding-off', {}, { config: 'router.yaml' }),
    'shedding-on': setup(
      'shedding-on',
      {
        SHED_CLASSES: 'checkout=0,batch=1',
        SHED_CLASS_RULES: 'consumer:checkout-svc=checkout,consumer:batch-svc=batch',
        SHED_MAX_IN_FLIGHT: String(SHED_MAX_IN_FLIGHT),
        SHED_STEP_PERCENT: String(SHED_STEP_PERCENT),
      },
      { skip: 'the Router sheds no class: it serves every client alike (its row is shedding off)' },
    ),
  };
}
