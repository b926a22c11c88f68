// Request header rules (propagate, insert, remove), checked and compiled once into functions
// that build a subgraph request's headers from the client's.
import type { IncomingHttpHeaders } from 'node:http';
import { type ConfigIssue, isHeaderName, RESERVED_HEADERS } from '../../plugin-sdk/index.js';

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

/** The options each kind of request rule takes (Apollo Router's names). */
const RULE_KEYS = {
  propagate: ['named', 'matching', 'rename', 'default'],
  insert: ['name', 'value'],
  remove: ['named', 'matching'],
} as const satisfies Record<string, readonly string[]>;

export type CompiledRule = (headers: Record<string, string>, incoming: IncomingHttpHeaders) => void;

export function compileRules(rules: RequestHeaderRule[], where: string, issues: ConfigIssue[]): CompiledRule[] {
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

export function headerName(name: unknown): string | undefined {
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
