// What one request may see: whether it carries a verified identity, its scopes and the
// policies granted to it. Decided once per request, before the operation is filtered.
import type { GatewayContext } from '../../plugin-sdk/index.js';
import type { Requirement } from './rules.js';

export interface Rights {
  /** A verified identity: a valid JWT or a known API key. */
  readonly authenticated: boolean;
  readonly scopes: ReadonlySet<string>;
  /** The policies the decider granted (only those the rules use are asked about). */
  readonly policies: ReadonlySet<string>;
}

/**
 * Decides `@policy`: given the request's context (its `identity`) and the policy names the
 * operation needs, returns the ones it grants, at once or as a Promise (a policy service).
 * Anything not returned is refused. A throw, a rejection, or no answer within the timeout
 * (then `signal` aborts) refuses the request: 503 `AUTHORIZATION_POLICY_UNAVAILABLE`.
 */
export type PolicyDecider = (
  context: GatewayContext,
  policies: ReadonlySet<string>,
  options: { readonly signal: AbortSignal },
) => Iterable<string> | Promise<Iterable<string>>;

/** Where the request's scopes come from: a JWT claim, space-separated or a list of strings. */
export function scopesOf(context: GatewayContext, scopeClaim: string): Set<string> {
  const claim = context.identity.claims?.[scopeClaim];
  if (typeof claim === 'string') return new Set(claim.split(/\s+/).filter((scope) => scope !== ''));
  if (Array.isArray(claim)) return new Set(claim.filter((scope): scope is string => typeof scope === 'string'));
  return new Set();
}

/** Signed in: any verified JWT (with or without `sub`, as Apollo Router decides), or an API key. */
export function isAuthenticated(context: GatewayContext): boolean {
  const { claims, subject, consumer } = context.identity;
  return claims !== undefined || subject !== undefined || consumer !== undefined;
}

/** Whether `rights` meet one requirement: OR over the groups, AND within one. */
export function meets(requirement: Requirement, rights: Rights): boolean {
  switch (requirement.kind) {
    case 'authenticated':
      return rights.authenticated;
    case 'scopes':
      return requirement.anyOf.some((all) => all.every((scope) => rights.scopes.has(scope)));
    case 'policy':
      return requirement.anyOf.some((all) => all.every((policy) => rights.policies.has(policy)));
  }
}

/**
 * The built-in policy rules (AUTHORIZATION_POLICIES): `name:claim=value` entries. A policy is
 * granted when the verified JWT claim equals the value, or, for a list claim, contains it.
 */
export interface ClaimPolicy {
  readonly policy: string;
  readonly claim: string;
  readonly value: string;
}

export function claimPolicies(rules: readonly ClaimPolicy[]): PolicyDecider {
  return (context, policies) => {
    const claims = context.identity.claims ?? {};
    const granted: string[] = [];
    for (const { policy, claim, value } of rules) {
      if (!policies.has(policy)) continue;
      const held = claims[claim];
      if (held === value || (Array.isArray(held) && held.includes(value))) granted.push(policy);
    }
    return granted;
  };
}
