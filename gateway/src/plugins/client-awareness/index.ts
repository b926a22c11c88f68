// Client awareness: subgraphs (and their metrics) learn which client application sent an
// operation through Apollo's `apollographql-client-name` / `-version` headers. A verified
// JWT claim is the trustworthy source; the client's own headers are the fallback. This is
// test 3 of the Apollo Router extensibility benchmark (docs/reference/published-benchmarks.md §C).
import type { IncomingHttpHeaders } from 'node:http';
import type { GatewayPlugin } from '../../plugin-sdk/index.js';
import {
  asOptionsObject,
  boolean,
  checkKnownKeys,
  defaultsOf,
  nonEmpty,
  OptionIssues,
  optionalValue,
  withDefault,
} from '../../plugin-sdk/index.js';
import { claimHeaderValue, firstHeaderValue, isSafeHeaderValue } from '../shared/header-values.js';

const PLUGIN = 'client-awareness';
export const CLIENT_NAME_HEADER = 'apollographql-client-name';
export const CLIENT_VERSION_HEADER = 'apollographql-client-version';

/** The claim names' schemas and defaults; CLIENT_AWARENESS_NAME_CLAIM and _VERSION_CLAIM are read with them. */
export const CLIENT_AWARENESS_VALUES = Object.freeze({
  nameClaim: withDefault(nonEmpty, 'client_name'),
  versionClaim: withDefault(nonEmpty, 'client_version'),
  headerFallback: withDefault(boolean, true),
});
export const CLIENT_AWARENESS_DEFAULTS = defaultsOf(CLIENT_AWARENESS_VALUES);

export interface ClientAwarenessOptions {
  /** JWT claim holding the client name (from `context.identity.claims`). Default: 'client_name' */
  nameClaim?: string;
  /** JWT claim holding the client version. Default: 'client_version' */
  versionClaim?: string;
  /**
   * Without the claim, use the client's own `apollographql-client-name` / `-version`
   * request headers. Default: true
   */
  headerFallback?: boolean;
}

const KNOWN_OPTIONS = [
  'nameClaim',
  'versionClaim',
  'headerFallback',
] as const satisfies readonly (keyof ClientAwarenessOptions)[];

/**
 * Sets the two client headers on every subgraph request: from the claim when the token
 * has it, else from the client's request header (when `headerFallback`), else leaves the
 * header as it is. Values that are not printable ASCII (or over 4 KiB) are ignored.
 */
export function clientAwareness(options: ClientAwarenessOptions = {}): GatewayPlugin {
  const parsed = asOptionsObject(PLUGIN, options);
  const issues = new OptionIssues();
  checkKnownKeys(issues, parsed, KNOWN_OPTIONS);
  const nameClaim = claimName(issues, parsed, 'nameClaim', CLIENT_AWARENESS_DEFAULTS.nameClaim);
  const versionClaim = claimName(issues, parsed, 'versionClaim', CLIENT_AWARENESS_DEFAULTS.versionClaim);
  const headerFallback = optionalValue(issues, parsed, 'headerFallback', CLIENT_AWARENESS_VALUES.headerFallback);
  issues.throwIfAny(PLUGIN);

  const fields = [
    [nameClaim, CLIENT_NAME_HEADER],
    [versionClaim, CLIENT_VERSION_HEADER],
  ] as const;

  return {
    name: PLUGIN,
    onSubgraphRequest({ headers, context }) {
      const claims = context.identity.claims;
      for (const [claim, header] of fields) {
        const value =
          (typeof claims?.[claim] === 'string' || typeof claims?.[claim] === 'number'
            ? claimHeaderValue(claims[claim])
            : undefined) ?? (headerFallback ? fromClient(context.scope.headers, header) : undefined);
        if (value !== undefined) headers[header] = value;
      }
    },
  };
}

function fromClient(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = firstHeaderValue(headers[name])?.trim();
  return value && isSafeHeaderValue(value) ? value : undefined;
}

function claimName(issues: OptionIssues, options: Record<string, unknown>, field: string, fallback: string): string {
  const value = options[field];
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || value === '') {
    issues.add(field, 'must be a non-empty claim name');
    return fallback;
  }
  return value;
}
