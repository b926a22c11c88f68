import type { IncomingHttpHeaders } from 'node:http';
import type { Identity } from './identity.js';

/**
 * What one HTTP request looks like to the gateway core, whatever the framework.
 * The same object is handed to `context()` and to `onResponse()`, so per-request
 * facts (the operation name, say) can be recorded by plugins and logged at the end.
 */
export interface RequestScope {
  readonly requestId: string;
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly ip: string;
  /**
   * How the request reached the gateway: `https` over TLS, or when a trusted proxy
   * (TRUSTED_PROXIES) says so in `X-Forwarded-Proto` (or `Forwarded`). Absent: `http`.
   */
  readonly scheme?: 'http' | 'https';
  /** `process.hrtime.bigint()` when the request arrived. */
  readonly startedAt: bigint;
  /** Set by the gateway once the request is authenticated: who made it (for its log line). */
  identity?: Identity;
  /** Set by the gateway once the operation is parsed. */
  operationName?: string | undefined;
  /**
   * Set by the trusted-documents plugin when the document that runs is its manifest's
   * (sent by id, or in full in enforce mode): the operator vouched for it, so e.g. its name
   * may take a metrics label value without first being seen repeatedly.
   */
  trustedDocument?: boolean;
  /**
   * Set when a check refused the request before its document was parsed (a trivial document
   * stood in for it): no operation of the client's was resolved, whatever it named.
   */
  refusedBeforeParsing?: boolean;
  /**
   * Set on a batched request (BATCHING_MAX_OPERATIONS): one scope per operation, in the
   * batch's order. Apollo plugins see an operation's own scope (its operationName,
   * trustedDocument… are its own), which reads everything else from the request's.
   */
  batchOperations?: RequestScope[] | undefined;
  /**
   * Progressive override (`@override(label:)`): labels a plugin turns on (`true`) or off
   * (`false`) for this request, as Apollo Router's `apollo_override::labels_to_override`
   * context key does. Set it before the operation is planned (`authenticate`, an Apollo hook up
   * to `didResolveOperation`, `aroundExecute` before it calls `execute`), as a new object:
   * `scope.overrideLabels = { ...scope.overrideLabels, 'use-reviews': true }`. A label set here
   * wins over its `percent(N)` draw; a custom label nobody sets is off; a label the supergraph
   * does not have is ignored. See docs/progressive-override.md.
   */
  overrideLabels?: Readonly<Record<string, boolean>>;
  /** Set by the entity cache: entities and root fetches it served (`hits`) or had to ask for (`misses`). */
  entityCache?: { hits: number; misses: number };
  /**
   * Adds a response header, keeping earlier values of the same name (so several
   * `set-cookie` headers survive, which Apollo Server's HeaderMap cannot hold).
   * Call it before the response is written, e.g. from an Apollo `willSendResponse` hook.
   */
  appendResponseHeader(name: string, value: string): void;
}
