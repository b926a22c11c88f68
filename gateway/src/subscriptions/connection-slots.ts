import { type ClientKeyOf, clientKey } from '../client-address/index.js';
import type { ConnectionGrant } from '../contract/index.js';
import { ClientErrorCode, codeExtensions } from '../error-registry.js';

/**
 * The streaming connections open at once (WebSockets, SSE streams, unopened single-connection
 * reservations): all clients together (SUBSCRIPTION_MAX_CONNECTIONS) and per client address
 * (SUBSCRIPTION_MAX_CONNECTIONS_PER_CLIENT), so that one address holding connections it never
 * uses cannot leave everyone else with 503. Keyed by the client's network (`keyOf` without an
 * identity: an IPv4 address, an IPv6 /64), as SUBSCRIPTION_MAX_PER_CLIENT falls back to: a slot
 * is taken before anything is authenticated (a WebSocket's credentials arrive in
 * `connection_init`, after the upgrade).
 */
export class ConnectionSlots {
  readonly #perClient = new Map<string, number>();
  readonly #max: number;
  readonly #maxPerClient: number;
  readonly #keyOf: ClientKeyOf;
  #open = 0;
  #draining = false;

  constructor(max: number, maxPerClient: number, keyOf: ClientKeyOf = (address) => clientKey(address, undefined)) {
    this.#max = max;
    this.#maxPerClient = maxPerClient;
    this.#keyOf = keyOf;
  }

  /** No new connection from now on (the gateway is shutting down). */
  drain(): void {
    this.#draining = true;
  }

  open(address: string): ConnectionGrant {
    if (this.#draining)
      return refused(503, ClientErrorCode.SHUTTING_DOWN, 'The gateway is shutting down; connect to another instance.');
    const client = this.#keyOf(address);
    const held = this.#perClient.get(client) ?? 0;
    // All taken: 503 whoever asks (a share as large as the whole is no cap).
    if (this.#open >= this.#max) {
      return refused(
        503,
        ClientErrorCode.SUBSCRIPTION_MAX_LIMIT,
        'No more streaming connections now (SUBSCRIPTION_MAX_CONNECTIONS).',
      );
    }
    if (held >= this.#maxPerClient) {
      return refused(
        429,
        ClientErrorCode.SUBSCRIPTION_MAX_LIMIT,
        `This address has ${this.#maxPerClient} streaming connections open, the most it may (SUBSCRIPTION_MAX_CONNECTIONS_PER_CLIENT).`,
      );
    }
    this.#open += 1;
    this.#perClient.set(client, held + 1);
    let released = false;
    return {
      granted: true,
      release: () => {
        if (released) return;
        released = true;
        this.#open -= 1;
        const left = (this.#perClient.get(client) ?? 1) - 1;
        if (left === 0) this.#perClient.delete(client);
        else this.#perClient.set(client, left);
      },
    };
  }
}

function refused(status: number, code: ClientErrorCode, message: string): ConnectionGrant {
  const legacy = code === ClientErrorCode.SUBSCRIPTION_MAX_LIMIT ? 'SUBSCRIPTION_LIMIT_EXCEEDED' : undefined;
  return { granted: false, status, error: { message, extensions: codeExtensions(code, legacy) } };
}
