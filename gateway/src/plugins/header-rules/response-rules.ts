// Response header rules: which subgraph response headers go back to the client, and how the
// values of several subgraphs' answers merge into one.
import { type ConfigIssue, RESERVED_HEADERS } from '../../plugin-sdk/index.js';
import { mostRestrictiveCacheControl } from './cache-control.js';
import { headerName } from './request-rules.js';

/** How values from several subgraph responses become one client header. */
export type MergeStrategy = 'first' | 'last' | 'append' | 'most-restrictive';

export interface ResponseHeaderRule {
  name: string;
  /** Default: `most-restrictive` for cache-control, `append` for set-cookie, else `last`. */
  merge?: MergeStrategy;
}

export function compileResponseRules(rules: ResponseHeaderRule[], issues: ConfigIssue[]): Map<string, MergeStrategy> {
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

export function merge(strategy: MergeStrategy, values: string[]): string[] {
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
