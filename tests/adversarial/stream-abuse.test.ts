import { connect, type Socket } from 'node:net';
import { eventually, type Gate, MOUNTS, postGraphQL, startGate, subgraphUrlEnv } from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayForBlock, subgraphsForFile } from '../support/lifecycle.js';
import { streamedAnswer } from '../support/multipart-answer.js';

// Class: @stream used to make the gateway hold or do more than the same operation unstreamed
// (ADR 060). A streamed answer is an answer like any other for the unread-answer turns of
// ADR 031 (a client that never reads gets UNREAD_ANSWERS_MAX_PER_CLIENT of them started); a
// huge initialCount is an unstreamed answer; many streams in one operation share the same
// batches, so the subgraph requests stay within 4× (the initial run and three later batches)
// those of the operation without @stream.

const subgraphs = subgraphsForFile();
let reviews: Gate;
beforeAll(async () => {
  reviews = await startGate(subgraphs().reviews.url);
});
afterAll(() => reviews?.server.close());

const ACCEPT = 'multipart/mixed;deferSpec=20220824, application/json';
/** Its initial part needs no reviews; each of its three later batches needs one reviews fetch. */
const HELD_STREAM = '{ topProducts(first: 5) @stream { id reviews { rating } } }';

/** A streamed request on a connection of its own from `localAddress`, its answer never read. */
function unreadStream(url: URL, localAddress: string): Socket {
  const socket = connect({ port: Number(url.port), host: url.hostname, localAddress });
  socket.pause();
  socket.on('error', () => {});
  const body = JSON.stringify({ query: HELD_STREAM });
  socket.write(
    `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\n` +
      `Accept: ${ACCEPT}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  return socket;
}

describe.each(MOUNTS)('@stream abuse on %s', (mount) => {
  const gateway = gatewayForBlock(mount, () => ({
    ...subgraphUrlEnv(subgraphs()),
    SUBGRAPH_REVIEWS_URL: reviews.server.url,
    UNREAD_ANSWERS_MAX_PER_CLIENT: '2',
  }));

  it('streams a client never reads take its unread-answer turns: past the cap, the next wait until one closes', async () => {
    reviews.close();
    const sockets: Socket[] = [];
    try {
      const url = new URL(gateway().url);
      sockets.push(...Array.from({ length: 4 }, () => unreadStream(url, '127.0.0.3')));
      // Two streams started: each has its three later batches held at the reviews gate.
      await eventually(() => expect(reviews.holding()).toBe(6));
      // Another address is served meanwhile; the two waiting streams still are not started.
      const other = await postGraphQL(gateway().url, { query: '{ topProducts(first: 1) { id } }' });
      expect(other.status).toBe(200);
      expect(reviews.holding()).toBe(6);
      // The first two connections close: their turns go to the two that waited.
      for (const socket of sockets.slice(0, 2)) socket.destroy();
      await eventually(() => expect(reviews.holding()).toBe(12));
    } finally {
      for (const socket of sockets) socket.destroy();
      reviews.release();
    }
  });

  it('a huge initialCount is the whole list in the initial part, and nothing pending', async () => {
    const answer = await streamedAnswer(
      gateway().url,
      { query: '{ topProducts(first: 5) @stream(initialCount: 2147483647) { id } }' },
      ACCEPT,
    );
    const parts = await answer.all();
    expect(parts).toEqual([
      { data: { topProducts: ['1', '2', '3', '4', '5'].map((n) => ({ id: `product-${n}` })) }, hasNext: true },
      { hasNext: false },
    ]);
  });

  it('many @stream in one operation share the batches: at most 4× the subgraph requests of the unstreamed one', async () => {
    const fields = (streamed: boolean) =>
      Array.from(
        { length: 20 },
        (_, index) =>
          `p${index}: topProducts(first: 6)${streamed ? ` @stream(initialCount: 1, label: "p${index}")` : ''} { id reviews { rating } }`,
      ).join(' ');
    const before = reviews.received();
    const whole = await postGraphQL(gateway().url, { query: `{ ${fields(false)} }` });
    expect(whole.status).toBe(200);
    const unstreamed = reviews.received() - before;
    const answer = await streamedAnswer(gateway().url, { query: `{ ${fields(true)} }` }, ACCEPT);
    const parts = await answer.all();
    const streamed = reviews.received() - before - unstreamed;
    console.log(`stream-abuse: reviews requests ${unstreamed} unstreamed, ${streamed} streamed`);
    expect(streamed).toBeLessThanOrEqual(4 * unstreamed);
    // Every list arrived whole: its first item, then the other five in the later parts.
    const items = parts
      .slice(1)
      .flatMap((part) => (part.incremental ?? []) as { items: unknown[] }[])
      .reduce((sum, entry) => sum + entry.items.length, 0);
    expect(items).toBe(20 * 5);
    expect(parts.at(-1)?.hasNext).toBe(false);
  });
});
