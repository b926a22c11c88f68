import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import {
  closedPortUrl,
  postGraphQL,
  type RunningGateway,
  startGateway,
  startTestHttpServer,
  type TestHttpServer,
} from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Class: a client that never reads makes the gateway hold its answers. One connection that
// pipelines 40 requests for 2 MB answers and reads nothing: the gateway closes it and its
// memory stays bounded, while other clients are served.

const NAME = 'x'.repeat(2 * 1024 * 1024);
let products: TestHttpServer;
beforeAll(async () => {
  products = await startTestHttpServer((_request, response) => {
    const body = JSON.stringify({ data: { topProducts: [{ name: NAME }] } });
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    response.end(body);
  });
});
afterAll(async () => {
  await products?.close();
});

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

function pipelinedRequests(url: URL, count: number): string {
  const body = JSON.stringify({ query: '{ topProducts(first: 1) { name } }' });
  const one =
    `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  return one.repeat(count);
}

describe.each(['fastify', 'express'] as const)('a client that never reads its answers, on %s', (mount) => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway(mount, {
      SUBGRAPH_PRODUCTS_URL: products.url,
      SUBGRAPH_USERS_URL: await closedPortUrl(),
      SUBGRAPH_REVIEWS_URL: await closedPortUrl(),
      STALLED_WRITE_TIMEOUT_MS: '1500',
    });
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('is disconnected, the memory it took stays bounded, and other clients are served', async () => {
    const pid = gateway.child.pid as number;
    // Warm up: one normal answer, so the baseline includes what any 2 MB answer costs.
    expect((await postGraphQL(gateway.url, { query: '{ topProducts(first: 1) { name } }' })).status).toBe(200);
    const baseline = rssMb(pid);
    const url = new URL(gateway.url);
    const socket = connect(Number(url.port), url.hostname);
    socket.pause(); // reads nothing
    socket.on('error', () => {});
    socket.write(pipelinedRequests(url, 40));
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(pid));
    }, 50);
    const other = await postGraphQL(gateway.url, { query: '{ __typename }' });
    // Past the stall timeout, read what the gateway left: it must have closed the connection
    // after a bounded amount, not hold 40 answers (80 MB) for a reader that never comes.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    let received = 0;
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.resume();
    await closed;
    clearInterval(sampler);
    expect(other.status).toBe(200);
    expect(received).toBeLessThan(40 * NAME.length);
    // At most 8 answers are built at once (each 2 MB answer is held several times over: text,
    // objects, the reply); all 40 at once took over 200 MB.
    console.log(`unread-responses: peak RSS +${(peak - baseline).toFixed(0)} MB`);
    expect(peak - baseline).toBeLessThan(130);
  });
});
