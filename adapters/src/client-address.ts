import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { MountableGateway, Scheme } from '@fedgw/gateway/contract';

type ClientAddressOf = NonNullable<MountableGateway['clientAddress']>;

const addresses = new WeakMap<IncomingMessage, string>();

/**
 * The client address of a request, as the gateway decides it (TRUSTED_PROXIES; the gateway's
 * `clientAddress`): from its socket and its own headers, once per request. Every per-client cap
 * of the adapters (unread answers, connection slots, the request scope's `ip`) reads it here. For
 * a WebSocket it is the upgrade request's: headers sent later in `connection_init` never name
 * the client.
 */
export function clientAddressOf(gateway: Pick<MountableGateway, 'clientAddress'>, request: IncomingMessage): string {
  return resolveClientAddress(request, gateway.clientAddress);
}

/** The same with the resolver itself (the listener's limits, set up before a gateway is mounted). */
export function resolveClientAddress(request: IncomingMessage, resolve: ClientAddressOf | undefined): string {
  let address = addresses.get(request);
  if (address === undefined) {
    const peer = request.socket.remoteAddress;
    address = resolve ? resolve(peer, request.headers) : (peer ?? '');
    addresses.set(request, address);
  }
  return address;
}

/**
 * The scheme of the gateway's own origin for a request, as the gateway decides it (TLS, or a
 * trusted proxy's `X-Forwarded-Proto`; the gateway's `requestScheme`): what the origin check and
 * the request scope read.
 */
export function schemeOf(gateway: Pick<MountableGateway, 'requestScheme'>, request: IncomingMessage): Scheme {
  const encrypted = (request.socket as Partial<TLSSocket>).encrypted === true;
  if (!gateway.requestScheme) return encrypted ? 'https' : 'http';
  return gateway.requestScheme({ encrypted, socketAddress: request.socket.remoteAddress, headers: request.headers });
}
