import type { GatewayContext, GatewayPlugin } from '../../plugin-sdk/index.js';
import {
  asOptionsObject,
  byteSize,
  checkKnownKeys,
  defaultsOf,
  httpError,
  OptionIssues,
  withDefault,
} from '../../plugin-sdk/index.js';
import { compileRules, type RequestHeaderRule } from './request-rules.js';
import { compileResponseRules, merge, type ResponseHeaderRule } from './response-rules.js';

export type { RequestHeaderRule } from './request-rules.js';
export type { MergeStrategy, ResponseHeaderRule } from './response-rules.js';

export interface HeaderRulesOptions {
  /** Rules for every subgraph, applied first. */
  all?: RequestHeaderRule[];
  /** Rules per subgraph name, applied after `all`. */
  subgraphs?: Record<string, RequestHeaderRule[]>;
  /** Subgraph response headers to pass back to the client. */
  response?: ResponseHeaderRule[];
  /**
   * Bytes of one forwarded header value (UTF-8). A request whose headers would make the rules
   * forward more is answered 431 before any subgraph is asked. Default: 4096.
   */
  maxValueBytes?: number;
  /** Bytes of every header the rules forward to one subgraph, names and values. Default: 8192. */
  maxTotalBytes?: number;
}

/**
 * Under the request-header limits of what usually fronts a subgraph (nginx: 8 KB a line; Node:
 * 16 KB in all), so a client's header can never make a subgraph answer 431 for everyone's fetch.
 */
export const HEADER_RULES_VALUES = Object.freeze({
  maxValueBytes: withDefault(byteSize(1, 1024 ** 2), 4096),
  maxTotalBytes: withDefault(byteSize(1, 1024 ** 2), 8192),
});
/** The byte limits' defaults, from their schemas (which GATEWAY_HEADER_RULES_MAX_VALUE_BYTES and _TOTAL_BYTES are read with too). */
export const HEADER_RULES_DEFAULTS = defaultsOf(HEADER_RULES_VALUES);

const PLUGIN = 'header-rules';

export function headerRules(options: HeaderRulesOptions): GatewayPlugin {
  const toolkit = new OptionIssues();
  const issues = toolkit.issues;
  checkKnownKeys(toolkit, asOptionsObject(PLUGIN, options), [
    'all',
    'subgraphs',
    'response',
    'maxValueBytes',
    'maxTotalBytes',
  ]);
  toolkit.check('maxValueBytes', options.maxValueBytes, HEADER_RULES_VALUES.maxValueBytes);
  toolkit.check('maxTotalBytes', options.maxTotalBytes, HEADER_RULES_VALUES.maxTotalBytes);
  const maxValueBytes = options.maxValueBytes ?? HEADER_RULES_DEFAULTS.maxValueBytes;
  const maxTotalBytes = options.maxTotalBytes ?? HEADER_RULES_DEFAULTS.maxTotalBytes;
  const all = compileRules(options.all ?? [], 'all', issues);
  const perSubgraph = new Map(
    Object.entries(options.subgraphs ?? {}).map(([name, rules]) => [
      name,
      compileRules(rules, `subgraphs.${name}`, issues),
    ]),
  );
  const responseRules = compileResponseRules(options.response ?? [], issues);
  toolkit.throwIfAny(PLUGIN);

  // Response header values seen so far, per request.
  const collected = new WeakMap<GatewayContext, Map<string, string[]>>();

  // Every rule set a subgraph request can get: `all`, then `all` with each subgraph's own.
  const ruleSets = [all, ...[...perSubgraph.values()].map((own) => [...all, ...own])];

  return {
    name: 'header-rules',
    // Before parsing, before any subgraph: what the rules would forward must fit the limits.
    authenticate(scope) {
      for (const rules of ruleSets) {
        const forwarded: Record<string, string> = {};
        for (const rule of rules) rule(forwarded, scope.headers);
        checkForwardedSize(forwarded, maxValueBytes, maxTotalBytes);
      }
      return undefined;
    },
    onSubgraphRequest({ subgraph, headers, context }) {
      for (const rule of all) rule(headers, context.scope.headers);
      for (const rule of perSubgraph.get(subgraph) ?? []) rule(headers, context.scope.headers);
    },
    ...(responseRules.size > 0 && {
      onSubgraphResponse({ headers, context }) {
        for (const name of responseRules.keys()) {
          const value = headers[name];
          if (value === undefined) continue;
          const values = collected.get(context) ?? new Map<string, string[]>();
          collected.set(context, values);
          values.set(name, [...(values.get(name) ?? []), ...[value].flat()]);
        }
      },
      apollo: {
        async requestDidStart() {
          return {
            async willSendResponse({ contextValue, response }) {
              const values = collected.get(contextValue);
              if (!values) return;
              for (const [name, all] of values) {
                const strategy = responseRules.get(name) ?? 'last';
                const merged = merge(strategy, all);
                if (strategy === 'append') {
                  // Repeated headers (set-cookie) need the adapter: Apollo's HeaderMap holds one value.
                  for (const value of merged) contextValue.scope.appendResponseHeader(name, value);
                } else if (merged[0] !== undefined) {
                  // Replaces Apollo Server's own value (its cache-control: no-store, say).
                  response.http.headers.set(name, merged[0]);
                }
              }
            },
          };
        },
      },
    }),
  };
}

/**
 * Throws 431 REQUEST_HEADER_FIELDS_TOO_LARGE when `forwarded` is over either limit. Bytes as
 * they go on the wire: Node reads header bytes as latin1 (one character a byte, so a UTF-8 `€`
 * is three characters here) and undici writes them back the same way.
 */
function checkForwardedSize(forwarded: Record<string, string>, maxValueBytes: number, maxTotalBytes: number): void {
  let total = 0;
  for (const [name, value] of Object.entries(forwarded)) {
    const bytes = Buffer.byteLength(value, 'latin1');
    if (bytes > maxValueBytes) {
      throw httpError(
        'REQUEST_HEADER_FIELDS_TOO_LARGE',
        `header ${name} is ${bytes} bytes; at most ${maxValueBytes} are forwarded to subgraphs`,
      );
    }
    total += Buffer.byteLength(name, 'latin1') + bytes;
  }
  if (total > maxTotalBytes) {
    throw httpError(
      'REQUEST_HEADER_FIELDS_TOO_LARGE',
      `the headers forwarded to subgraphs would be ${total} bytes; at most ${maxTotalBytes}`,
    );
  }
}
