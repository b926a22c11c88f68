import type { IncomingHttpHeaders } from 'node:http';

/** The scheme of the gateway's own origin. */
export type Scheme = 'http' | 'https';

/** A CORS preflight's answer: always 204; the `Access-Control-*` headers only for an allowed origin. */
export interface PreflightAnswer {
  readonly status: 204;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * The one origin policy (CORS_*): it answers preflights, adds the CORS headers to answers, and
 * decides whether a streaming request (WebSocket upgrade, SSE, multipart) may carry a cookie
 * from another origin. The adapters apply it; the gateway core builds it from the settings.
 */
export interface OriginPolicy {
  /** False when no origin is allowed: answers need no CORS header, so adapters add no per-request work. */
  readonly enabled: boolean;
  preflight(headers: IncomingHttpHeaders): PreflightAnswer;
  /** Headers for an answer (`Access-Control-Allow-Origin`…, `Vary: Origin`); undefined when none are needed. */
  answerHeaders(headers: IncomingHttpHeaders): Readonly<Record<string, string>> | undefined;
  /**
   * False for a request that carries a cookie from a page on an origin that may not send
   * credentials: a WebSocket or an EventSource needs no preflight, so the browser would send the
   * user's cookie from any site (cross-site WebSocket hijacking); the gateway refuses it instead.
   * The gateway's own origin is `scheme` (the request's: `requestScheme`), `Host` and its port.
   */
  allowsCredentialedStream(headers: IncomingHttpHeaders, scheme: Scheme): boolean;
}

/** A refusal of a request that carries no operation, in the shape every mount sends. */
export interface Refusal {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}
