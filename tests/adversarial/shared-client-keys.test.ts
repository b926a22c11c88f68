import {
  addReview,
  eventually,
  MOUNTS,
  openMultipart,
  openStream,
  refusalOf,
  STREAM_PROTOCOLS,
  type StreamEnd,
  type StreamProtocol,
  subgraphUrlEnv,
} from '@fedgw/test-support';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { gatewayForBlock, subgraphsForFile } from '../support/lifecycle.js';

// Class: a key many clients share standing for one client in a per-client cap. A public app's
// API key is in every copy of the app: keyed by it alone, the first user to hold
// SUBSCRIPTION_MAX_PER_CLIENT subscriptions locks every other user of the app out. Each
// user of a shared key is told apart by its address (here: forwarded by a trusted proxy, as
// behind an ingress), on every transport; a verified JWT subject is one person, wherever it
// connects from, and keeps one budget.

const APP_KEY = 'shared-app-key-0123456789abcdef';
const SECRET = 'shared-client-keys-secret-long-enough-0123456789';
const REVIEW_ADDED = 'subscription OnReview($productId: ID) { reviewAdded(productId: $productId) { comment } }';
const TRANSPORTS = [...STREAM_PROTOCOLS, 'multipart'] as const;
type Transport = (typeof TRANSPORTS)[number];

const subgraphs = subgraphsForFile();

/** A subscription being held: whether the gateway admitted it, and how to leave. */
interface Held {
  /** `live` once an event arrived (multipart: once the stream opened), else the refusal's codes. */
  admitted(): Promise<'live' | unknown[]>;
  stop(): void;
}

async function bearer(subject: string): Promise<string> {
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(subject)
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(SECRET));
  return `Bearer ${token}`;
}

/** A subscription to `productId`'s reviews by a client at `from`, as the trusted proxy forwards it. */
function subscribe(
  transport: Transport,
  url: string,
  productId: string,
  from: string,
  credentials: Record<string, string>,
): Held {
  // On a WebSocket the headers go on the upgrade, where the proxy writes X-Forwarded-For.
  const headers = { 'x-forwarded-for': from, ...credentials };
  const payload = { query: REVIEW_ADDED, variables: { productId } };
  if (transport === 'multipart') {
    const opening = openMultipart(url, payload, headers);
    return {
      admitted: async () => {
        const response = await opening;
        if (response.status === 200) return 'live';
        await response.ended;
        return codesIn(JSON.parse(response.text()));
      },
      stop: () =>
        void opening.then(
          (response) => response.abort(),
          () => {},
        ),
    };
  }
  const stream = openStream(transport, url, payload, { headers });
  return { admitted: () => liveOrRefused(transport, stream, productId), stop: () => stream.stop() };
}

/** Adds reviews until the stream gets one (live at the subgraph) or ends (refused). */
async function liveOrRefused(
  protocol: StreamProtocol,
  stream: ReturnType<typeof openStream>,
  productId: string,
): Promise<'live' | unknown[]> {
  let end: StreamEnd | undefined;
  void stream.ended.then((value) => {
    end = value;
  });
  await eventually(async () => {
    if (end || stream.events.length > 0) return;
    await addReview(subgraphs().reviews.url, { productId, rating: 4, comment: 'live?' });
    throw new Error('neither an event nor a refusal yet');
  }, 15_000);
  const [first] = stream.events;
  if (first && !first.errors) return 'live';
  return codesIn({ errors: await refusalOf(protocol, stream) });
}

const codesIn = (body: { errors?: { extensions?: { code?: unknown } }[] }) =>
  (body.errors ?? []).map((error) => error.extensions?.code);

describe.each(MOUNTS)('per-client caps with a key many clients share, on %s', (mount) => {
  const gateway = gatewayForBlock(mount, () => ({
    ...subgraphUrlEnv(subgraphs()),
    GATEWAY_PLUGINS: 'jwt,api-key',
    GATEWAY_API_KEYS: `app:${APP_KEY}`,
    JWT_SECRET: SECRET,
    JWT_ALGORITHMS: 'HS256',
    JWT_REQUIRED: 'false',
    // The test is the proxy: it names each client in X-Forwarded-For.
    TRUSTED_PROXIES: '127.0.0.1, ::1',
    SUBSCRIPTION_MAX_PER_CLIENT: '1',
  }));
  const app = { 'x-api-key': APP_KEY };

  it.each(TRANSPORTS)(
    'over %s, one user of the app key holding its subscription leaves the other users theirs',
    async (transport) => {
      const index = TRANSPORTS.indexOf(transport);
      const productId = `product-${80 + index}`;
      const [alice, bob] = [`203.0.113.${20 + 2 * index}`, `203.0.113.${21 + 2 * index}`];
      const held: Held[] = [];
      const hold = (from: string) => {
        const subscription = subscribe(transport, gateway().url, productId, from, app);
        held.push(subscription);
        return subscription.admitted();
      };
      try {
        expect(await hold(alice)).toBe('live');
        // Before: the app key alone was the client, so bob was refused with alice's cap.
        expect(await hold(bob)).toBe('live');
        // Alice's own cap still holds.
        expect(await hold(alice)).toEqual(['SUBSCRIPTION_MAX_LIMIT']);
      } finally {
        for (const subscription of held) subscription.stop();
      }
    },
  );

  it('a verified subject is one person: its one subscription is its cap from any address', async () => {
    const credentials = { ...app, authorization: await bearer('user-7') };
    const held: Held[] = [];
    const hold = (from: string) => {
      const subscription = subscribe('multipart', gateway().url, 'product-90', from, credentials);
      held.push(subscription);
      return subscription.admitted();
    };
    try {
      expect(await hold('198.51.100.31')).toBe('live');
      expect(await hold('198.51.100.32')).toEqual(['SUBSCRIPTION_MAX_LIMIT']);
    } finally {
      for (const subscription of held) subscription.stop();
    }
  });
});
