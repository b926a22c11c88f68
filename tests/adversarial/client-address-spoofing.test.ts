import { request } from 'node:http';
import { closedPortUrl, MOUNTS, type RunningGateway, startGateway } from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { clientKey } from '../../gateway/src/client-address/index.js';

// Class: a client that picks its own bucket. Anonymous clients are keyed by their address for
// the rate limit and the streaming-connection caps; behind a trusted proxy the address comes
// from X-Forwarded-For, so a client must not be able to choose it by sending the header itself
// (from an untrusted hop), by sending it twice, or with values that are not addresses.
//
// The gateway listens on `::` (dual stack), so IPv4 peers arrive as `::ffff:127.0.0.x`, and the
// test connects from two loopback addresses: 127.0.0.2 is the trusted proxy (TRUSTED_PROXIES),
// 127.0.0.1 an untrusted client.

const PROXY = '127.0.0.2';
const UNTRUSTED = '127.0.0.1';
const MAX = 2;

interface Answer {
  status: number;
  body: { errors?: { extensions?: Record<string, unknown> }[] };
}

/** One POST from `localAddress`, with headers sent exactly as given (an array: repeated header lines). */
function postFrom(url: string, localAddress: string, headers: Record<string, string | string[]> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', localAddress, headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Answer['body'] }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ query: '{ __typename }' }));
  });
}

/** A graphql-ws upgrade from `localAddress`: the open socket (held), or the refusal's status. */
function upgradeFrom(
  url: string,
  localAddress: string,
  headers: Record<string, string>,
): Promise<{ status: number; socket?: WebSocket }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url.replace(/^http/, 'ws'), 'graphql-transport-ws', { headers, localAddress });
    socket.once('unexpected-response', (_request, response) => {
      resolve({ status: response.statusCode ?? 0 });
      socket.terminate();
    });
    socket.once('open', () => resolve({ status: 101, socket }));
    socket.once('error', reject);
  });
}

/**
 * A POST from `localAddress` whose body is sent only in part: its client's answer turn is taken
 * (from the request's headers) until `finish()` sends the rest and the answer ends.
 */
function heldPostFrom(url: string, localAddress: string, headers: Record<string, string>) {
  const body = JSON.stringify({ query: '{ __typename }' });
  let finish = () => {};
  const answer = new Promise<number>((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', 'content-length': String(body.length), ...headers },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.write(body.slice(0, 5));
    finish = () => req.end(body.slice(5));
  });
  return { answer, finish: () => finish() };
}

const statuses = (answers: Answer[]) => answers.map((answer) => answer.status);
const codeOf = (answer: Answer) => answer.body.errors?.[0]?.extensions;

/** `count` requests one after another, so the window's count is exact. */
async function sequential(count: number, send: (index: number) => Promise<Answer>): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let index = 0; index < count; index++) answers.push(await send(index));
  return answers;
}

describe.each(MOUNTS)('client addresses behind a proxy, on %s', (mount) => {
  let gateway: RunningGateway;
  let url: string;
  beforeAll(async () => {
    const unreachable = await closedPortUrl();
    gateway = await startGateway(mount, {
      GATEWAY_LISTEN_HOST: '::',
      TRUSTED_PROXIES: `${PROXY}, fd00::/8`,
      GATEWAY_PLUGINS: 'rate-limit',
      RATE_LIMIT_MAX: String(MAX),
      RATE_LIMIT_WINDOW: '10m',
      SUBSCRIPTION_MAX_CONNECTIONS_PER_CLIENT: '1',
      // One answer at a time per client, so a held request shows whose turn it takes.
      UNREAD_ANSWERS_MAX_PER_CLIENT: '1',
      SUBGRAPH_USERS_URL: unreachable,
      SUBGRAPH_PRODUCTS_URL: unreachable,
      SUBGRAPH_REVIEWS_URL: unreachable,
    });
    url = `http://127.0.0.1:${new URL(gateway.url).port}/graphql`;
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('from an untrusted hop, X-Forwarded-For is ignored: a new value per request is still one bucket', async () => {
    const answers = await sequential(MAX + 1, (i) =>
      postFrom(url, UNTRUSTED, { 'x-forwarded-for': `198.51.100.${i}` }),
    );
    expect(statuses(answers)).toEqual([200, 200, 429]);
    // The Router's code, the old one beside it for a release.
    expect(codeOf(answers[MAX] as Answer)).toEqual({ code: 'REQUEST_RATE_LIMITED', legacyCode: 'RATE_LIMITED' });
  });

  it('through the trusted proxy, each forwarded client has its own bucket', async () => {
    const first = await sequential(MAX + 1, () => postFrom(url, PROXY, { 'x-forwarded-for': '203.0.113.1' }));
    expect(statuses(first)).toEqual([200, 200, 429]);
    const other = await postFrom(url, PROXY, { 'x-forwarded-for': '203.0.113.2' });
    expect(other.status).toBe(200);
  });

  it('a client prepending its own X-Forwarded-For entry, or header, past the proxy still lands in its real bucket', async () => {
    const real = '203.0.113.3';
    const spoofs = [
      { 'x-forwarded-for': `6.6.6.${1}, ${real}` },
      { 'x-forwarded-for': [`6.6.6.${2}`, real] },
      { 'x-forwarded-for': [`6.6.6.${3}, 6.6.6.4`, real] },
    ];
    const answers = await sequential(spoofs.length, (i) => postFrom(url, PROXY, spoofs[i] ?? {}));
    expect(statuses(answers)).toEqual([200, 200, 429]);
    // The spoofed addresses' buckets were never charged.
    expect((await postFrom(url, PROXY, { 'x-forwarded-for': '6.6.6.1' })).status).toBe(200);
  });

  it('garbage or `unknown` in the chain counts against the proxy, never a bucket the client named', async () => {
    const garbage = ['not-an-ip', '203.0.113.4, unknown', "'; DROP TABLE --", '1.2.3.4.5', '999.1.1.1'];
    const answers = await sequential(garbage.length, (i) =>
      postFrom(url, PROXY, { 'x-forwarded-for': garbage[i] ?? '' }),
    );
    // All five share the proxy's own bucket: two pass, then 429.
    expect(statuses(answers)).toEqual([200, 200, 429, 429, 429]);
    expect((await postFrom(url, PROXY, { 'x-forwarded-for': '203.0.113.4' })).status).toBe(200);
    // A Forwarded header is not what this proxy writes (CLIENT_ADDRESS_HEADER): not read.
    expect((await postFrom(url, PROXY, { forwarded: 'for=203.0.113.99' })).status).toBe(429);
  });

  it('an IPv6-mapped IPv4 address and its IPv4 form are one client; an IPv6 in canonical form too', async () => {
    const mapped = await sequential(MAX + 1, (i) =>
      postFrom(url, PROXY, { 'x-forwarded-for': i === MAX ? '203.0.113.5' : '::ffff:203.0.113.5' }),
    );
    expect(statuses(mapped)).toEqual([200, 200, 429]);
    const ipv6 = await sequential(MAX + 1, (i) =>
      postFrom(url, PROXY, {
        'x-forwarded-for': ['2001:DB8:0::7', '[2001:db8::7]:443', '2001:db8:0:0:0:0:0:7'][i] ?? '',
      }),
    );
    expect(statuses(ipv6)).toEqual([200, 200, 429]);
  });

  it('the streaming-connection cap per client keys on the same address: forwarded clients apart, spoofers together', async () => {
    const held: WebSocket[] = [];
    try {
      const a = await upgradeFrom(url, PROXY, { 'x-forwarded-for': '203.0.113.10' });
      expect(a.status).toBe(101);
      if (a.socket) held.push(a.socket);
      expect((await upgradeFrom(url, PROXY, { 'x-forwarded-for': '203.0.113.10' })).status).toBe(429);
      const b = await upgradeFrom(url, PROXY, { 'x-forwarded-for': '203.0.113.11' });
      expect(b.status).toBe(101);
      if (b.socket) held.push(b.socket);

      const spoofer = await upgradeFrom(url, UNTRUSTED, { 'x-forwarded-for': '203.0.113.12' });
      expect(spoofer.status).toBe(101);
      if (spoofer.socket) held.push(spoofer.socket);
      expect((await upgradeFrom(url, UNTRUSTED, { 'x-forwarded-for': '203.0.113.13' })).status).toBe(429);
    } finally {
      for (const socket of held) socket.terminate();
    }
  });
  // Class: a client picking a new bucket by picking a new address. An IPv6 client is given a
  // /64 (or more) and chooses any address in it (privacy addresses change daily): every
  // address-keyed cap counts the /64 (CLIENT_IPV6_PREFIX) as one client.
  it('every address of one IPv6 /64 shares one rate-limit bucket; the next /64 is another client', async () => {
    const answers = await sequential(MAX + 1, (i) =>
      postFrom(url, PROXY, {
        'x-forwarded-for': ['2001:db8:1:1::1', '2001:db8:1:1:a:b:c:d', '2001:db8:1:1::ffff'][i] ?? '',
      }),
    );
    expect(statuses(answers)).toEqual([200, 200, 429]);
    expect((await postFrom(url, PROXY, { 'x-forwarded-for': '2001:db8:1:2::1' })).status).toBe(200);
  });

  it('the streaming-connection cap per client counts one IPv6 /64 as one client', async () => {
    const held: WebSocket[] = [];
    try {
      const first = await upgradeFrom(url, PROXY, { 'x-forwarded-for': '2001:db8:2:1::1' });
      expect(first.status).toBe(101);
      if (first.socket) held.push(first.socket);
      expect((await upgradeFrom(url, PROXY, { 'x-forwarded-for': '2001:db8:2:1::2' })).status).toBe(429);
      const next = await upgradeFrom(url, PROXY, { 'x-forwarded-for': '2001:db8:2:2::1' });
      expect(next.status).toBe(101);
      if (next.socket) held.push(next.socket);
    } finally {
      for (const socket of held) socket.terminate();
    }
  });

  it('the answers-per-client turn counts one IPv6 /64 as one client', async () => {
    const held = heldPostFrom(url, PROXY, { 'x-forwarded-for': '2001:db8:3:1::1' });
    let sameAnswered = false;
    let same: Promise<Answer> | undefined;
    try {
      // Another address of the same /64 waits for the held answer's turn…
      same = postFrom(url, PROXY, { 'x-forwarded-for': '2001:db8:3:1::2' }).then((answer) => {
        sameAnswered = true;
        return answer;
      });
      // …while a client in another /64 is answered meanwhile.
      expect((await postFrom(url, PROXY, { 'x-forwarded-for': '2001:db8:3:2::1' })).status).toBe(200);
      expect(sameAnswered).toBe(false);
    } finally {
      held.finish();
    }
    expect(await held.answer).toBe(200);
    expect((await same)?.status).toBe(200);
  });
});

// A peer on one of the gateway's own links: Node reports a link-local address with its zone
// (`fe80::1%eth0`, the gateway's interface), which is not an address `normalizeAddress` accepts,
// so it was kept whole and every host part a client picked in fe80::/64 was a new client.
describe('a link-local peer (the address Node reports with its zone)', () => {
  it('is its /64 on that link, however it writes its host part; another link is another client', () => {
    const keys = ['fe80::1%eth0', 'fe80::a:b:c:d%eth0', 'FE80:0:0:0:0:0:0:2%eth0'].map((a) => clientKey(a, undefined));
    expect(new Set(keys)).toEqual(new Set(['ip:fe80::/64%eth0']));
    expect(clientKey('fe80::1%eth1', undefined)).toBe('ip:fe80::/64%eth1');
    expect(clientKey('fe80::1%eth0', { consumer: 'app' })).toBe('api-key:app@fe80::/64%eth0');
  });
});
