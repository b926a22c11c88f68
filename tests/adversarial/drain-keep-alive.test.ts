import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import {
  closedPortUrl,
  eventually,
  MOUNTS,
  type Mount,
  startGateway,
  startTestHttpServer,
  type TestHttpServer,
  writeUntilRead,
} from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Class: a shutdown that drops clients or hangs. SIGTERM under a keep-alive load, on every
// mount: in-flight requests finish, responses during the drain say `Connection: close`, no
// socket is reset under a client, and the process exits 0; a socket that never sent a request
// does not hold the drain; a request that outlives the grace exits 1, its log naming it.

const FAST = JSON.stringify({ query: '{ __typename }' });
const SLOW = JSON.stringify({ query: '{ topProducts(first: 1) { name } }' });
let products: TestHttpServer;

beforeAll(async () => {
  products = await startTestHttpServer((_request, response) => {
    setTimeout(() => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ data: { topProducts: [{ name: 'Chair' }] } }));
    }, 800);
  });
});
afterAll(async () => {
  await products?.close();
});

interface Answer {
  readonly status: number;
  readonly connection: string | undefined;
  readonly at: number;
}

function post(url: URL, agent: Agent, body: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, at: Date.now() }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe.each(MOUNTS)('SIGTERM under keep-alive load on %s', (mount) => {
  it('finishes in-flight requests, says Connection: close while draining, resets nothing, exits 0', async () => {
    const gateway = await startGateway(mount, {
      SUBGRAPH_PRODUCTS_URL: products.url,
      SUBGRAPH_USERS_URL: await closedPortUrl(),
      SUBGRAPH_REVIEWS_URL: await closedPortUrl(),
      SHUTDOWN_DELAY_MS: '300',
      SHUTDOWN_GRACE_MS: '5000',
    });
    const url = new URL(gateway.url);
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const answers: Answer[] = [];
    const failures: string[] = [];
    let stop = false;
    let signalledAt = Number.POSITIVE_INFINITY;
    // Each client behaves as a load balancer's connection would: it leaves when told
    // `Connection: close` (it would go to another instance); until then it keeps sending.
    const loop = async () => {
      while (!stop) {
        try {
          const answer = await post(url, agent, FAST);
          answers.push(answer);
          if (answer.connection === 'close') return;
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
          // The listener is closed: a load balancer has stopped sending by now. Anything else dropped a client.
          if (code === 'ECONNREFUSED') return;
          failures.push(code);
          return;
        }
      }
    };
    const loops = Array.from({ length: 8 }, loop);
    // The load is on: every client has been answered at least once (8 keep-alive sockets in use).
    await eventually(() => expect(answers.length).toBeGreaterThanOrEqual(8));
    const asked = products.requests.length;
    const slow = post(url, agent, SLOW);
    // In flight: the gateway is waiting for the products subgraph.
    await eventually(() => expect(products.requests.length).toBe(asked + 1));
    signalledAt = Date.now();
    const exited = gateway.stop('SIGTERM');
    const slowAnswer = await slow;
    const code = await exited;
    stop = true;
    await Promise.all(loops);
    agent.destroy();

    expect(failures).toEqual([]);
    expect(slowAnswer.status).toBe(200);
    expect(code).toBe(0);
    // Every client was told, and none was told before SIGTERM.
    const told = answers.filter((answer) => answer.connection === 'close');
    expect(told).toHaveLength(8);
    expect(told.every((answer) => answer.at >= signalledAt)).toBe(true);
    expect(slowAnswer.connection).toBe('close');
  });
});

/**
 * A gateway with a client connection that `send`s something (or nothing) and goes silent; after
 * SIGTERM, the gateway must close that socket and exit 0 well inside its 5 s grace.
 */
async function drainsPast(mount: Mount, send: (socket: Socket, url: URL) => Promise<void>): Promise<void> {
  const gateway = await startGateway(mount, {
    SUBGRAPH_PRODUCTS_URL: products.url,
    SUBGRAPH_USERS_URL: await closedPortUrl(),
    SUBGRAPH_REVIEWS_URL: await closedPortUrl(),
    SHUTDOWN_DELAY_MS: '0',
    SHUTDOWN_GRACE_MS: '5000',
    REQUEST_TIMEOUT_MS: '60000',
  });
  const url = new URL(gateway.url);
  const socket = connect(Number(url.port), url.hostname);
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('connect', resolve));
  await send(socket, url);
  const closedByGateway = new Promise((resolve) => socket.once('close', resolve));
  const code = await gateway.stop('SIGTERM');
  expect(code, gateway.output().slice(-2000)).toBe(0);
  await closedByGateway;
}

describe.each(MOUNTS)('a client that connected and sent nothing, on %s', (mount) => {
  it('does not hold the drain: the gateway exits 0 (its socket is closed, as an idle one is)', async () => {
    // A browser's or a balancer's preconnect: Node's closeIdleConnections() leaves it open, and
    // it held the drain for its whole grace (exit 1).
    await drainsPast(mount, async () => {});
  });
});

describe.each(MOUNTS)('a request whose body never arrives, on %s', (mount) => {
  it('is cut at drain, not waited for: the gateway exits 0 well inside a long grace', async () => {
    // Content-Length 100, 10 bytes sent, then silence: it held the drain for the whole grace (exit 1).
    await drainsPast(mount, async (socket, url) => {
      // Read by the gateway (else its socket would only be a silent one) before SIGTERM.
      await writeUntilRead(
        socket,
        `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"query":`,
      );
    });
  });
});

describe.each(MOUNTS)('a request still running when the grace ends, on %s', (mount) => {
  it('exits 1 and the log names what the drain waited for', async () => {
    // A subgraph that never answers: the request outlives SHUTDOWN_GRACE_MS.
    const stuck = await startTestHttpServer(() => {});
    try {
      const gateway = await startGateway(mount, {
        SUBGRAPH_PRODUCTS_URL: stuck.url,
        SUBGRAPH_USERS_URL: await closedPortUrl(),
        SUBGRAPH_REVIEWS_URL: await closedPortUrl(),
        SHUTDOWN_DELAY_MS: '0',
        SHUTDOWN_GRACE_MS: '1000',
      });
      const agent = new Agent({ keepAlive: true });
      const pending = post(new URL(gateway.url), agent, SLOW).catch((error: Error) => error);
      await eventually(() => expect(stuck.requests).toHaveLength(1)); // in flight at the subgraph
      const code = await gateway.stop('SIGTERM');
      agent.destroy();
      await pending;
      expect(code).toBe(1);
      const timeout = gateway
        .output()
        .split('\n')
        .filter((line) => line.includes('did not finish within the grace period'))
        .map((line) => JSON.parse(line));
      expect(timeout).toHaveLength(1);
      expect(timeout[0].open.requests).toEqual(['POST /graphql']);
      if (!mount.startsWith('nest-')) expect(timeout[0].waitingFor).toBe('listener');
    } finally {
      await stuck.close();
    }
  });
});
