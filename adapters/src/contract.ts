import type { IncomingHttpHeaders } from 'node:http';
import type { ApolloServer, BaseContext } from '@apollo/server';
import type { ServerTimeouts } from './server-timeouts.js';

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
  /** `process.hrtime.bigint()` when the request arrived. */
  readonly startedAt: bigint;
  /** Set by the gateway once the operation is parsed. */
  operationName?: string | undefined;
  /**
   * Adds a response header, keeping earlier values of the same name (so several
   * `set-cookie` headers survive, which Apollo Server's HeaderMap cannot hold).
   * Call it before the response is written, e.g. from an Apollo `willSendResponse` hook.
   */
  appendResponseHeader(name: string, value: string): void;
}

/**
 * The narrow contract every platform adapter mounts. The gateway core implements it;
 * tests can build one around any started ApolloServer.
 */
export interface MountableGateway<TContext extends BaseContext = BaseContext> {
  /** A started ApolloServer. */
  readonly server: ApolloServer<TContext>;
  /** Where GraphQL is served, e.g. `/graphql`. */
  readonly path: string;
  /** Larger request bodies get HTTP 413. */
  readonly bodyLimitBytes: number;
  context(scope: RequestScope): Promise<TContext>;
  /** `/ready` answers 503 while this is false (loading, or draining before shutdown). */
  isReady(): boolean;
  /** Called once per request on the GraphQL path, after the response is sent. */
  onResponse?(scope: RequestScope, statusCode: number): void;
}

/** A bare (no NestJS) server that is listening. */
export interface ListeningServer {
  readonly url: string;
  readonly port: number;
  /** Stops accepting connections and resolves once in-flight requests have finished. */
  close(): Promise<void>;
}

export interface ListenOptions {
  port: number;
  host: string;
  /** Default: Node's own (Fastify: no request timeout at all). */
  timeouts?: ServerTimeouts;
}
