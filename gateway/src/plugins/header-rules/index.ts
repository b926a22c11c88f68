import type { IncomingHttpHeaders } from 'node:http';
import type { GatewayContext, GatewayPlugin } from '../../plugin-sdk/index.js';
import {
  asOptionsObject,
  byteSize,
  type ConfigIssue,
  checkKnownKeys,
  defaultsOf,
  httpError,
  isHeaderName,
  OptionIssues,
  RESERVED_HEADERS,
  withDefault,
} from '../../plugin-sdk/index.js';
import { mostRestrictiveCacheControl } from './cache-control.js';

/**
 * Apollo Router-like header rules for subgraph requests (propagate, insert, remove; for
 * all subgraphs or one), plus what the Router can only do with a script: chosen subgraph
 * *response* headers passed back to the client, merged when several subgraphs answer.
 */
export type RequestHeaderRule =
  /** Copy a client header (by name, or every one matching a regex) to the subgraph request. */
  | { propagate: { named: string; rename?: string; default?: string } | { matching: string } }
  /** Set a static header. */
  | { insert: { name: string; value: string } }
  /** Drop headers set by earlier rules. */
  | { remove: { named: string } | { matching: string } };

/** How values from several subgraph responses become one client header. */
export type MergeStrategy = 'first' | 'last' | 'append' | 'most-restrictive';

export interface ResponseHeaderRule {
  name: string;
  /** Default: `most-restrictive` for cache-control, `append` for set-cookie, else `last`. */
  merge?: MergeStrategy;
}

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
/** The options each kind of request rule takes (Apollo Router's names). */
const RULE_KEYS = {
  propagate: ['named', 'matching', 'rename', 'default'],
  insert: ['name', 'value'],
  remove: ['named', 'matching'],
} as const satisfies Record<string, readonly string[]>;

type CompiledRule = (headers: Record<string, string>, incoming: IncomingHttpHeaders) => void;

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

function compileRules(rules: RequestHeaderRule[], where: string, issues: ConfigIssue[]): CompiledRule[] {
  if (!Array.isArray(rules)) {
    issues.push({ field: where, message: 'expected a list of rules' });
    return [];
  }
  return rules.flatMap((rule, index) => {
    const field = `${where}[${index}]`;
    const compiled = compileRule(rule, field, issues);
    return compiled ? [compiled] : [];
  });
}

function compileRule(rule: RequestHeaderRule, field: string, issues: ConfigIssue[]): CompiledRule | undefined {
  const fail = (message: string) => {
    issues.push({ field, message });
    return undefined;
  };
  if (typeof rule !== 'object' || rule === null) return fail('expected an object');
  const kinds = Object.keys(rule);
  if (kinds.length !== 1)
    return fail(`expected exactly one of propagate, insert, remove; got ${kinds.join(', ') || 'none'}`);
  const spec = Object.values(rule)[0] as unknown;
  if (typeof spec !== 'object' || spec === null) return fail(`${kinds[0]} must be an object`);
  const known: readonly string[] | undefined = RULE_KEYS[kinds[0] as keyof typeof RULE_KEYS];
  const unknown = known ? Object.keys(spec).filter((key) => !known.includes(key)) : [];
  if (unknown.length > 0) return fail(`unknown ${kinds[0]} option ${unknown.join(', ')} (known: ${known?.join(', ')})`);
  if ('propagate' in rule) {
    const spec = rule.propagate;
    if ('named' in spec) {
      const from = headerName(spec.named);
      const to = headerName(spec.rename ?? spec.named);
      if (!from || !to) return fail('propagate.named/rename must be valid header names');
      if (RESERVED_HEADERS.has(to)) return fail(`"${to}" is a hop-by-hop or reserved header and is never forwarded`);
      return (headers, incoming) => {
        const value = single(incoming[from]) ?? spec.default;
        if (value !== undefined) headers[to] = value;
      };
    }
    const pattern = regex(spec.matching);
    if (!pattern) return fail(`propagate.matching is not a valid regular expression: ${JSON.stringify(spec.matching)}`);
    return (headers, incoming) => {
      for (const [name, value] of Object.entries(incoming)) {
        const text = single(value);
        if (text !== undefined && !RESERVED_HEADERS.has(name) && pattern.test(name)) headers[name] = text;
      }
    };
  }
  if ('insert' in rule) {
    const name = headerName(rule.insert.name);
    if (!name || typeof rule.insert.value !== 'string') return fail('insert needs a valid name and a string value');
    if (RESERVED_HEADERS.has(name)) return fail(`"${name}" is a hop-by-hop or reserved header and is never forwarded`);
    return (headers) => {
      headers[name] = rule.insert.value;
    };
  }
  if ('remove' in rule) {
    const spec = rule.remove;
    if ('named' in spec) {
      const name = headerName(spec.named);
      if (!name) return fail('remove.named must be a valid header name');
      return (headers) => {
        delete headers[name];
      };
    }
    const pattern = regex(spec.matching);
    if (!pattern) return fail(`remove.matching is not a valid regular expression: ${JSON.stringify(spec.matching)}`);
    return (headers) => {
      for (const name of Object.keys(headers)) if (pattern.test(name)) delete headers[name];
    };
  }
  return fail('expected one of propagate, insert, remove');
}

function compileResponseRules(rules: ResponseHeaderRule[], issues: ConfigIssue[]): Map<string, MergeStrategy> {
  const compiled = new Map<string, MergeStrategy>();
  rules.forEach((rule, index) => {
    const unknown = Object.keys(rule ?? {}).filter((key) => key !== 'name' && key !== 'merge');
    if (unknown.length > 0) {
      issues.push({
        field: `response[${index}]`,
        message: `unknown option ${unknown.join(', ')} (known: name, merge)`,
      });
      return;
    }
    const name = headerName(rule?.name);
    const strategy = rule?.merge ?? defaultMerge(name ?? '');
    if (!name || RESERVED_HEADERS.has(name)) {
      issues.push({ field: `response[${index}].name`, message: 'must be a header name that is not hop-by-hop' });
    } else if (!['first', 'last', 'append', 'most-restrictive'].includes(strategy)) {
      issues.push({ field: `response[${index}].merge`, message: 'expected first | last | append | most-restrictive' });
    } else if (strategy === 'most-restrictive' && name !== 'cache-control') {
      issues.push({ field: `response[${index}].merge`, message: 'most-restrictive applies to cache-control only' });
    } else {
      compiled.set(name, strategy);
    }
  });
  return compiled;
}

function defaultMerge(name: string): MergeStrategy {
  if (name === 'cache-control') return 'most-restrictive';
  if (name === 'set-cookie') return 'append';
  return 'last';
}

function merge(strategy: MergeStrategy, values: string[]): string[] {
  if (values.length === 0) return [];
  switch (strategy) {
    case 'first':
      return values.slice(0, 1);
    case 'last':
      return values.slice(-1);
    case 'append':
      return values;
    case 'most-restrictive':
      return [mostRestrictiveCacheControl(values)];
  }
}

function headerName(name: unknown): string | undefined {
  return isHeaderName(name) ? name.toLowerCase() : undefined;
}

function regex(source: unknown): RegExp | undefined {
  if (typeof source !== 'string') return undefined;
  try {
    return new RegExp(source, 'i');
  } catch {
    return undefined;
  }
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
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
