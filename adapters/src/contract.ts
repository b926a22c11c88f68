import type { OpenConnections } from './open-connections.js';
import type { ServerTimeouts } from './server-timeouts.js';

/** A bare (no NestJS) server that is listening. */
export interface ListeningServer {
  readonly url: string;
  readonly port: number;
  /** Stops accepting connections and resolves once in-flight requests have finished. */
  close(): Promise<void>;
  /** What is still connected (for the log when a drain runs past its grace). */
  openConnections?(): OpenConnections;
}

export interface ListenOptions {
  port: number;
  host: string;
  /** Default: Node's own (Fastify: no request timeout at all). */
  timeouts?: ServerTimeouts;
}
