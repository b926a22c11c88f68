import type { GatewayContext } from '../../plugin-sdk/index.js';

/**
 * Sent with every mirrored request: a gateway never mirrors a request that carries it, so a
 * shadow that is itself (or mirrors back) cannot start an endless chain.
 */
export const SHADOW_HEADER = 'x-gateway-shadow';

/** One sampled query, as its client sent it, with the answer the client got. */
export interface MirroredQuery {
  readonly query: string;
  readonly variables?: Readonly<Record<string, unknown>> | undefined;
  readonly operationName?: string | undefined;
  /** The name of the operation that ran (also when the client sent no `operationName`), for the log. */
  readonly resolvedName?: string | undefined;
  /** The client's headers a URL shadow may receive (SHADOW_FORWARD_HEADERS only). */
  readonly headers: Readonly<Record<string, string>>;
  /** The client's context (identity, override labels), for a shadow run in this process. */
  readonly context: GatewayContext;
  /** What the client was answered. */
  readonly answer: ShadowAnswer;
}

/** The part of a GraphQL answer that is compared. */
export interface ShadowAnswer {
  readonly data?: unknown;
  readonly errors?: readonly { readonly path?: readonly (string | number)[]; readonly extensions?: unknown }[];
}

/** What bounds one shadow request. */
export interface ShadowLimits {
  readonly maxResponseBytes: number;
  /** Aborted when the shadow's time is up: stop reading, release what it holds. */
  readonly signal: AbortSignal;
}

/**
 * Where mirrored queries go. `send` answers the shadow's GraphQL answer, or rejects with a
 * `ShadowFailure` saying why there is none; it must stop when `limits.signal` aborts.
 */
export interface ShadowTarget {
  readonly name: 'url' | 'supergraph';
  send(query: MirroredQuery, limits: ShadowLimits): Promise<ShadowAnswer>;
  close?(): Promise<void>;
}

/** Why a shadow gave no answer to compare: logged (throttled) and counted as `shadow_error`. */
export class ShadowFailure extends Error {
  constructor(
    readonly reason: 'timeout' | 'too_large' | 'unreachable' | 'invalid_json' | 'not_graphql' | 'failed',
    options?: { cause?: unknown },
  ) {
    super(reason, options);
  }
}
