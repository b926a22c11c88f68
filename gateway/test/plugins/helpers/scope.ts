import type { IncomingHttpHeaders } from 'node:http';
import { GraphQLError } from 'graphql';
import { expect } from 'vitest';
import { createContext } from '../../../src/context.js';
import type { GatewayContext, GatewayPlugin, Identity, RequestScope } from '../../../src/contract/index.js';

let counter = 0;

/** A RequestScope as an adapter would build it for one request with these headers. */
export function requestScope(headers: IncomingHttpHeaders = {}): RequestScope {
  counter++;
  return {
    requestId: `req-${counter}`,
    method: 'POST',
    url: '/graphql',
    headers,
    ip: '127.0.0.1',
    startedAt: process.hrtime.bigint(),
    appendResponseHeader() {
      throw new Error('the auth plugins must not write response headers directly');
    },
  };
}

/** Runs `plugin.authenticate` as createGateway does (the plugin must have the hook). */
export async function authenticate(
  plugin: GatewayPlugin,
  headers: IncomingHttpHeaders = {},
): Promise<Partial<Identity> | undefined> {
  if (!plugin.authenticate) throw new Error(`plugin ${plugin.name} has no authenticate hook`);
  return plugin.authenticate(requestScope(headers));
}

export interface Rejection {
  readonly status: unknown;
  readonly code: unknown;
  readonly message: string;
  readonly wwwAuthenticate: string | undefined;
  /** Everything the client could see: message and extensions, serialized. */
  readonly serialized: string;
}

/** Asserts that authenticating with these headers throws an httpError, and describes it. */
export async function rejection(plugin: GatewayPlugin, headers: IncomingHttpHeaders = {}): Promise<Rejection> {
  let thrown: unknown;
  try {
    await authenticate(plugin, headers);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(GraphQLError);
  const error = thrown as GraphQLError;
  const http = error.extensions.http as { status?: unknown; headers?: Map<string, string> } | undefined;
  return {
    status: http?.status,
    code: error.extensions.code,
    message: error.message,
    wwwAuthenticate: http?.headers?.get('www-authenticate'),
    serialized: JSON.stringify({
      message: error.message,
      extensions: { ...error.extensions, http: { status: http?.status, headers: [...(http?.headers ?? [])] } },
    }),
  };
}

/** The context createGateway would build for this scope and identity. */
export function gatewayContext(identity: Identity = {}, headers: IncomingHttpHeaders = {}): GatewayContext {
  return createContext(requestScope(headers), Object.freeze({ ...identity }));
}

/** Runs `plugin.onSubgraphRequest` on a copy of `headers` and returns the outgoing headers. */
export function subgraphHeaders(
  plugin: GatewayPlugin,
  context: GatewayContext,
  headers: Record<string, string> = {},
): Record<string, string> {
  if (!plugin.onSubgraphRequest) throw new Error(`plugin ${plugin.name} has no onSubgraphRequest hook`);
  const outgoing = { 'content-type': 'application/json', ...headers };
  plugin.onSubgraphRequest({ subgraph: 'users', headers: outgoing, context, query: '{ me { id } }' });
  return outgoing;
}
