import type { SubgraphName } from './definition.js';

/** Settings of one subgraph process, parsed once from the environment. */
export interface SubgraphEnv {
  readonly port: number;
  readonly host: string;
  readonly delayMs: number;
  readonly inlineTrace: boolean;
  /** SUBGRAPH_COUNT_HEADER: a request header counted by value at GET /header-counts. */
  readonly countHeader?: string;
}

export type ParsedEnv = { ok: true; env: SubgraphEnv } | { ok: false; errors: string[] };

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Reads PORT (else USERS_PORT / PRODUCTS_PORT / REVIEWS_PORT, else defaultPort), HOST,
 * SUBGRAPH_DELAY_MS, SUBGRAPH_INLINE_TRACE and SUBGRAPH_COUNT_HEADER. Empty values count as unset. Reports every
 * invalid variable at once, each message naming it.
 */
export function parseSubgraphEnv(name: SubgraphName, defaultPort: number, env: Env): ParsedEnv {
  const errors: string[] = [];
  const portVar = present(env.PORT) ? 'PORT' : `${name.toUpperCase()}_PORT`;
  const port = integer(env, portVar, defaultPort, 0, 65_535, errors);
  const delayMs = integer(env, 'SUBGRAPH_DELAY_MS', 0, 0, 600_000, errors);
  const host = present(env.HOST) ? env.HOST.trim() : '127.0.0.1';

  let inlineTrace = false;
  const trace = env.SUBGRAPH_INLINE_TRACE;
  if (present(trace)) {
    if (trace === 'true' || trace === 'false') inlineTrace = trace === 'true';
    else errors.push(`SUBGRAPH_INLINE_TRACE must be "true" or "false" (got "${trace}")`);
  }

  const countHeader = present(env.SUBGRAPH_COUNT_HEADER) ? env.SUBGRAPH_COUNT_HEADER.trim() : undefined;
  if (countHeader !== undefined && !/^[A-Za-z0-9-]+$/.test(countHeader)) {
    errors.push(`SUBGRAPH_COUNT_HEADER must be a header name: letters, digits and "-" (got "${countHeader}")`);
  }

  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, env: Object.freeze({ port, host, delayMs, inlineTrace, ...(countHeader && { countHeader }) }) };
}

function present(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}

function integer(env: Env, variable: string, fallback: number, min: number, max: number, errors: string[]): number {
  const raw = env[variable];
  if (!present(raw)) return fallback;
  const value = Number(raw);
  if (/^\s*\d+\s*$/.test(raw) && value >= min && value <= max) return value;
  errors.push(`${variable} must be an integer from ${min} to ${max} (got "${raw}")`);
  return fallback;
}
