import type { ClientErrorCode as ContractClientErrorCode } from './contract/error-codes.js';

/**
 * Every error code the gateway can emit, in one place (fastify's `lib/errors.js` is the
 * model): what a client sees (`extensions.code`, with its HTTP status) and what stops
 * startup (`error.code`). The README's error table is checked against this by a test.
 */
export interface ClientErrorSpec {
  /** The HTTP status of the response; 200 when the error sits on fields of a partial answer. */
  readonly status: number;
  /** Its message is written for clients and survives production masking. */
  readonly clientSafe: boolean;
}

/** `extensions.code` values a client can receive, ours and those Apollo Server sets. */
export const CLIENT_ERRORS = {
  // Refused before execution (the adapters answer the first three themselves).
  /** 400, or a framework's own 4xx for a request it cannot read (408, 431…). */
  BAD_REQUEST: { status: 400, clientSafe: true },
  PAYLOAD_TOO_LARGE: { status: 413, clientSafe: true },
  /** A client header a header rule would forward is over GATEWAY_HEADER_RULES_MAX_VALUE_BYTES / _TOTAL_BYTES. */
  REQUEST_HEADER_FIELDS_TOO_LARGE: { status: 431, clientSafe: true },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, clientSafe: true },
  /**
   * Files sent with a query or subscription, at a variable that is not typed `Upload`, or with an
   * operation whose plan would send a file to an entity fetch or to more than one subgraph fetch.
   */
  UPLOAD_NOT_ALLOWED: { status: 400, clientSafe: true },
  /** The client sent no byte of its upload for UPLOAD_IDLE_TIMEOUT_MS while the gateway waited for one. */
  UPLOAD_IDLE_TIMEOUT: { status: 408, clientSafe: true },
  /** A batch (a JSON array of operations) holds more than BATCHING_MAX_OPERATIONS: none of it ran. */
  BATCH_TOO_LARGE: { status: 400, clientSafe: true },
  GRAPHQL_PARSE_FAILED: { status: 400, clientSafe: true },
  GRAPHQL_VALIDATION_FAILED: { status: 400, clientSafe: true },
  BAD_USER_INPUT: { status: 400, clientSafe: true },
  PERSISTED_QUERY_NOT_FOUND: { status: 200, clientSafe: true },
  PERSISTED_QUERY_NOT_SUPPORTED: { status: 200, clientSafe: true },
  /** extensions.persistedQuery is not `{ version: 1, sha256Hash: <64 hex> }`. */
  PERSISTED_QUERY_INVALID: { status: 400, clientSafe: true },
  /** The query sent with a persisted query hash is not the hash's (Apollo Router's code). */
  PERSISTED_QUERY_HASH_MISMATCH: { status: 400, clientSafe: true },
  /** Trusted documents: the document id is not in the manifest (Apollo Router's code). */
  PERSISTED_QUERY_NOT_IN_LIST: { status: 400, clientSafe: true },
  /** Trusted documents in enforce mode: the full document is not in the manifest (Apollo Router's code). */
  QUERY_NOT_IN_SAFELIST: { status: 400, clientSafe: true },
  /** The request names no runnable operation (unknown name, several and no name). Apollo Server's code. */
  OPERATION_RESOLUTION_FAILURE: { status: 400, clientSafe: true },
  /**
   * A query planner refused the operation (valid, but no plan reaches what it selects: e.g. a field
   * only a non-resolvable @interfaceObject has). Apollo Router's code and status.
   */
  QUERY_PLANNING_FAILED: { status: 400, clientSafe: true },
  /** A subscription sent over plain HTTP (use a WebSocket or `Accept: text/event-stream`), or with subscriptions off. */
  SUBSCRIPTION_NOT_SUPPORTED: { status: 400, clientSafe: true },
  /**
   * An operation with @defer from a request whose Accept does not take `multipart/mixed;deferSpec=20220824`
   * (Apollo Router's 406), or any request whose Accept refuses every transport it can have
   * (e.g. only `multipart/mixed` for a query without @defer).
   */
  NOT_ACCEPTABLE: { status: 406, clientSafe: true },
  /**
   * Over SUBSCRIPTION_MAX_OPEN, _MAX_PER_CLIENT, _PER_CONNECTION or _MAX_CONNECTIONS (Apollo Router's
   * code for its `max_opened_subscriptions`; was SUBSCRIPTION_LIMIT_EXCEEDED).
   */
  SUBSCRIPTION_MAX_LIMIT: { status: 429, clientSafe: true },
  /** The gateway is shutting down: no new subscription (live ones complete). */
  SHUTTING_DOWN: { status: 503, clientSafe: true },
  /** Over MAX_DEPTH (Apollo Router's code for `max_depth`; was OPERATION_LIMIT_EXCEEDED). */
  MAX_DEPTH_LIMIT: { status: 400, clientSafe: true },
  /** Over MAX_ALIASES (Apollo Router's code for `max_aliases`; was OPERATION_LIMIT_EXCEEDED). */
  MAX_ALIASES_LIMIT: { status: 400, clientSafe: true },
  /** Over MAX_ROOT_FIELDS (Apollo Router's code for `max_root_fields`; was OPERATION_LIMIT_EXCEEDED). */
  MAX_ROOT_FIELDS_LIMIT: { status: 400, clientSafe: true },
  /** Over MAX_CHARACTERS or MAX_FIELDS: limits the Router does not have, so no Router code. */
  OPERATION_LIMIT_EXCEEDED: { status: 400, clientSafe: true },
  /** The operation's estimated cost is over MAX_COST (the same code as Apollo Router's). */
  COST_ESTIMATED_TOO_EXPENSIVE: { status: 400, clientSafe: true },
  /**
   * A WebSocket, SSE or multipart request that carries a cookie from a page on an origin the
   * CORS settings do not let send credentials (cross-site WebSocket hijacking, CSRF over streams).
   */
  ORIGIN_NOT_ALLOWED: { status: 403, clientSafe: true },
  /** No, or a bad, credential. */
  UNAUTHENTICATED: { status: 401, clientSafe: true },
  /**
   * AUTHORIZATION_MODE=reject: the operation selects a field the request may not see
   * (@authenticated, @requiresScopes, @policy); no subgraph was asked.
   */
  UNAUTHORIZED_OPERATION: { status: 403, clientSafe: true },
  /** On each field the request may not see, answered null (Apollo Router's code). */
  UNAUTHORIZED_FIELD_OR_TYPE: { status: 200, clientSafe: true },
  /**
   * The operation selects an `@policy` field and the policy decider threw, failed or did not
   * answer within AUTHORIZATION_POLICY_TIMEOUT_MS: refused whole (fail closed), no subgraph asked.
   */
  AUTHORIZATION_POLICY_UNAVAILABLE: { status: 503, clientSafe: true },
  /** Never raised by the gateway: a subgraph's own authorization error, passed on on its fields. */
  FORBIDDEN: { status: 200, clientSafe: true },
  /**
   * Over the rate limit; `Retry-After` says when to come back (Apollo Router's code, though the
   * Router answers 503; was RATE_LIMITED).
   */
  REQUEST_RATE_LIMITED: { status: 429, clientSafe: true },
  /**
   * The client's address holds more than half of UNREAD_BYTES_MAX_PER_CLIENT in answers it has
   * not read: a new request is refused before any work; `Retry-After` says when to come back.
   */
  UNREAD_ANSWERS_LIMIT_EXCEEDED: { status: 429, clientSafe: true },
  /** The client's address has UPLOAD_MAX_PER_CLIENT uploads in flight: one more is refused unread. */
  UPLOAD_LIMIT_EXCEEDED: { status: 429, clientSafe: true },
  /** The rate-limit store is down and the limiter fails closed. */
  RATE_LIMIT_UNAVAILABLE: { status: 503, clientSafe: true },
  /**
   * Load shedding: the gateway is past its bound for the request's class (SHED_CLASSES); refused
   * before any work, with `Retry-After` (Apollo Router's code for its own overload refusal).
   */
  REQUEST_CONCURRENCY_LIMITED: { status: 503, clientSafe: true },
  // On fields of a partial answer.
  /** The subgraph did not answer within its timeout (Apollo Router's code for it; was SUBGRAPH_TIMEOUT). */
  GATEWAY_TIMEOUT: { status: 200, clientSafe: true },
  /**
   * The subgraph could not be reached, or answered a non-2xx status without a GraphQL response
   * (Apollo Router's code; was SUBGRAPH_UNAVAILABLE, or SUBGRAPH_BAD_RESPONSE for a status).
   */
  SUBREQUEST_HTTP_ERROR: { status: 200, clientSafe: true },
  /** A 2xx answer that is not a GraphQL response (Apollo Router's code; was SUBGRAPH_BAD_RESPONSE). */
  SUBREQUEST_MALFORMED_RESPONSE: { status: 200, clientSafe: true },
  /** A subgraph's answer was larger than SUBGRAPH_MAX_RESPONSE_BYTES; its read was aborted. */
  SUBGRAPH_RESPONSE_TOO_LARGE: { status: 200, clientSafe: true },
  /** The subgraph's circuit breaker is open after repeated failures: it was not asked. */
  SUBGRAPH_CIRCUIT_OPEN: { status: 200, clientSafe: true },
  /** The answer would be larger than MAX_RESPONSE_BYTES; it is replaced by this one error (`data: null`). */
  RESPONSE_TOO_LARGE: { status: 200, clientSafe: true },
  // In the last event of a subscription that ended early (then `complete`).
  /**
   * The subgraph closed the subscription's socket, failed, or could not be reached (Apollo
   * Router's code for a subgraph socket closed with an error; was SUBSCRIPTION_SOURCE_CLOSED).
   */
  WEBSOCKET_CLOSE_ERROR: { status: 200, clientSafe: true },
  /** More than SUBSCRIPTION_MAX_BUFFERED_EVENTS events waited for this client. */
  SUBSCRIPTION_SLOW_CONSUMER: { status: 200, clientSafe: true },
  /** A new supergraph was loaded: live subscriptions end, clients subscribe again (Apollo Router's code). */
  SUBSCRIPTION_SCHEMA_RELOAD: { status: 200, clientSafe: true },
  /**
   * The JWT a subscription was authenticated with expired: it ends, the client resubscribes with
   * a new one (Apollo Router's code; was SUBSCRIPTION_TOKEN_EXPIRED).
   */
  SUBSCRIPTION_JWT_EXPIRED: { status: 200, clientSafe: true },
  /** Anything else, masked in production; the original is logged with the request id. */
  INTERNAL_SERVER_ERROR: { status: 500, clientSafe: false },
} as const satisfies Readonly<Record<ContractClientErrorCode, ClientErrorSpec>>;

/**
 * Codes renamed to Apollo Router's for the same condition, so clients moving from the Router
 * keep working. For one release an error with a renamed code still carries the
 * old one in `extensions.legacyCode` (kept under MASK_ERRORS too); then this list goes.
 * Old code → the codes that replaced it.
 */
export const LEGACY_CODES = {
  SUBSCRIPTION_TOKEN_EXPIRED: ['SUBSCRIPTION_JWT_EXPIRED'],
  SUBSCRIPTION_SOURCE_CLOSED: ['WEBSOCKET_CLOSE_ERROR'],
  SUBSCRIPTION_LIMIT_EXCEEDED: ['SUBSCRIPTION_MAX_LIMIT'],
  RATE_LIMITED: ['REQUEST_RATE_LIMITED'],
  OPERATION_LIMIT_EXCEEDED: ['MAX_DEPTH_LIMIT', 'MAX_ALIASES_LIMIT', 'MAX_ROOT_FIELDS_LIMIT'],
  SUBGRAPH_TIMEOUT: ['GATEWAY_TIMEOUT'],
  SUBGRAPH_UNAVAILABLE: ['SUBREQUEST_HTTP_ERROR'],
  SUBGRAPH_BAD_RESPONSE: ['SUBREQUEST_HTTP_ERROR', 'SUBREQUEST_MALFORMED_RESPONSE'],
} as const satisfies Readonly<Record<string, readonly ClientErrorCode[]>>;

export type LegacyCode = keyof typeof LEGACY_CODES;

/** `extensions` naming an error: its code, and the code it had before the rename, if any. */
export function codeExtensions(
  code: ClientErrorCode,
  legacyCode?: LegacyCode,
): { code: ClientErrorCode; legacyCode?: LegacyCode } {
  return legacyCode === undefined ? { code } : { code, legacyCode };
}

/**
 * `error.code` of errors that are never sent to a client: those that stop configuration
 * or startup, and internal failures that are only logged (a JWKS fetch).
 */
export const STARTUP_ERRORS = {
  ERR_GATEWAY_CONFIG_INVALID: 'the configuration has invalid fields (each is named)',
  ERR_GATEWAY_CONFIG_FILE_UNREADABLE: 'GATEWAY_CONFIG_FILE cannot be read',
  ERR_GATEWAY_SUPERGRAPH_UNREADABLE: 'the supergraph file cannot be read (the cause says why: ENOENT, EISDIR…)',
  ERR_GATEWAY_SUPERGRAPH_INVALID: 'the supergraph cannot be loaded',
  ERR_GATEWAY_START_FAILED:
    'the gateway was started twice or after it stopped, or GatewayModule was mounted on a platform other than express or fastify',
  ERR_GATEWAY_PLUGIN_OPTIONS_INVALID: "a plugin factory's options are invalid (each is named)",
  ERR_GATEWAY_PLUGIN_MODULE_INVALID:
    'a plugin module named in GATEWAY_CONFIG_FILE is missing, throws, or does not make a plugin, or its plugin has a hook that is not a function (the entry and the reason, or the hook, are named)',
  ERR_GATEWAY_PLUGIN_MODULE_TIMEOUT:
    'a plugin module named in GATEWAY_CONFIG_FILE was still loading (its import or its factory) after GATEWAY_PLUGIN_MODULE_TIMEOUT_MS (the entry is named)',
  ERR_JWKS_UNAVAILABLE: 'the JWKS is in its cooldown after a failed fetch (logged; the token gets 401)',
  ERR_JWKS_FETCH_FAILED: 'the JWKS fetch failed (logged; the token gets 401)',
} as const;

/** The contract's list of client codes (`contract/error-codes.ts`), which `CLIENT_ERRORS` holds exactly. */
export type ClientErrorCode = ContractClientErrorCode;
export type StartupErrorCode = keyof typeof STARTUP_ERRORS;

/** Each client code as a constant: `ClientErrorCode.RATE_LIMITED`. */
export const ClientErrorCode: { readonly [K in ClientErrorCode]: K } = Object.freeze(
  Object.fromEntries(Object.keys(CLIENT_ERRORS).map((code) => [code, code])) as { [K in ClientErrorCode]: K },
);

export function isClientErrorCode(code: unknown): code is ClientErrorCode {
  return typeof code === 'string' && Object.hasOwn(CLIENT_ERRORS, code);
}

/** Renamed codes stay client-safe for their last release: a plugin or subgraph may still send one. */
export function isClientSafe(code: unknown): boolean {
  if (typeof code === 'string' && Object.hasOwn(LEGACY_CODES, code)) return true;
  return isClientErrorCode(code) && CLIENT_ERRORS[code].clientSafe;
}
