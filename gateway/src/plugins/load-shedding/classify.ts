import type { IncomingHttpHeaders } from 'node:http';
import type { Identity } from '../../plugin-sdk/index.js';
import type { ShedRule } from './classes.js';

/** The header Apollo's client awareness reads a client's name from (anyone can set it). */
export const CLIENT_NAME_HEADER = 'apollographql-client-name';

/**
 * Puts a request in a class: the first rule on verified evidence (API key consumer, JWT claim)
 * that matches, else the first rule on the self-declared client name, else the default. Verified
 * rules go first so that a client name can never lift a request out of the class its credential
 * gives it (a batch consumer sending `apollographql-client-name: web-app` stays batch).
 */
export function classifier(
  rules: readonly ShedRule[],
  defaultClass: string,
): (identity: Identity, headers: IncomingHttpHeaders) => string {
  const verified = rules.filter((rule) => rule.kind !== 'client');
  const declared = rules.filter((rule) => rule.kind === 'client');
  return (identity, headers) => {
    for (const rule of verified) if (verifiedMatch(rule, identity)) return rule.className;
    if (declared.length > 0) {
      const raw = headers[CLIENT_NAME_HEADER];
      const name = Array.isArray(raw) ? raw[0] : raw;
      if (name !== undefined) for (const rule of declared) if (rule.value === name) return rule.className;
    }
    return defaultClass;
  };
}

function verifiedMatch(rule: ShedRule, identity: Identity): boolean {
  if (rule.kind === 'consumer') return identity.consumer === rule.value;
  if (rule.kind !== 'claim') return false;
  const claim = identity.claims?.[rule.claim];
  if (Array.isArray(claim)) return claim.some((item) => scalarEquals(item, rule.value));
  // A space-separated `scope` claim (RFC 8693) lists several values.
  if (rule.claim === 'scope' && typeof claim === 'string') return claim.split(' ').includes(rule.value);
  return scalarEquals(claim, rule.value);
}

function scalarEquals(value: unknown, expected: string): boolean {
  return (
    (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') && String(value) === expected
  );
}
