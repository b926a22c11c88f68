// A `@policy` decider that asks a policy service over HTTP, per request: it sends the caller's
// subject and the policy names the operation needs (never the token), and gets back the ones
// granted. The gateway bounds it (AUTHORIZATION_POLICY_TIMEOUT_MS, then `signal` aborts the
// call); a throw, a rejection or a late answer refuses the request, 503
// AUTHORIZATION_POLICY_UNAVAILABLE. Decisions are not cached: each request asks for its own
// identity. Used by tests/contract/authorization-options-contract.test.ts.
//
//   POST <url>  {"subject":"user-9","policies":["support"]}  →  {"granted":["support"]}
import type { PolicyDecider } from '@fedgw/gateway';

export function policyService(url: string): PolicyDecider {
  return async (context, policies, { signal }) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ subject: context.identity.subject ?? null, policies: [...policies] }),
      signal,
    });
    if (!response.ok) throw new Error(`the policy service answered ${response.status}`);
    const { granted } = (await response.json()) as { granted?: unknown };
    if (!Array.isArray(granted)) throw new Error('the policy service answered without a `granted` list');
    return granted.filter((name): name is string => typeof name === 'string');
  };
}
