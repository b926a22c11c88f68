/**
 * The harness's reading of @defer answers: both framings it meets (Apollo Router's boundary
 * `graphql`, our gateway's `-`), the first-part test the load runs on every chunk, and the merge
 * the answer check compares; then the timed loop against a fake server that holds the last part.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runDeferLoop } from '../src/load/defer-loop.js';
import {
  holdsFirstPart,
  mergeIncremental,
  multipartBoundary,
  multipartPayloads,
} from '../src/load/incremental-answer.js';

const initial = { data: { products: [{ id: '1' }, { id: '2' }] }, hasNext: true };
const later = {
  incremental: [
    { data: { reviews: [{ id: 'r1' }] }, path: ['products', 0] },
    { data: { reviews: [] }, path: ['products', 1] },
  ],
  hasNext: false,
};

const routerBody = `--graphql\r\ncontent-type: application/json\r\n\r\n${JSON.stringify(initial)}\r\n--graphql\r\ncontent-type: application/json\r\n\r\n${JSON.stringify(later)}\r\n--graphql--\r\n`;
const oursBody = `\r\n---\r\ncontent-type: application/json; charset=utf-8\r\n\r\n${JSON.stringify(initial)}\r\n---\r\ncontent-type: application/json; charset=utf-8\r\n\r\n${JSON.stringify(later)}\r\n-----\r\n`;

describe('incremental answers', () => {
  it('reads the boundary of either framing, and nothing from a JSON content type', () => {
    expect(multipartBoundary('multipart/mixed;boundary="graphql";deferSpec=20220824')).toBe('graphql');
    expect(multipartBoundary('multipart/mixed; boundary="-"; deferSpec=20220824')).toBe('-');
    expect(multipartBoundary('application/json')).toBeNull();
    expect(multipartBoundary(undefined)).toBeNull();
  });

  it('sees the first part complete only once the next delimiter has arrived', () => {
    for (const [body, boundary] of [
      [routerBody, 'graphql'],
      [oursBody, '-'],
    ] as const) {
      const firstJsonEnd = body.indexOf(JSON.stringify(initial)) + JSON.stringify(initial).length;
      expect(holdsFirstPart(body.slice(0, firstJsonEnd), boundary)).toBe(false);
      expect(holdsFirstPart(body.slice(0, firstJsonEnd + 2 + 2 + boundary.length), boundary)).toBe(true);
    }
  });

  it('merges the later parts at their paths, as a client does', () => {
    for (const [body, boundary] of [
      [routerBody, 'graphql'],
      [oursBody, '-'],
    ] as const) {
      expect(mergeIncremental(multipartPayloads(body, boundary))).toEqual({
        data: {
          products: [
            { id: '1', reviews: [{ id: 'r1' }] },
            { id: '2', reviews: [] },
          ],
        },
        errors: [],
        complete: true,
      });
    }
  });

  it('keeps errors from any part and says when the last part never came', () => {
    const withError = { incremental: [{ errors: [{ message: 'refused' }], path: ['products', 0] }], hasNext: true };
    expect(mergeIncremental([initial, withError])).toMatchObject({ errors: [{ message: 'refused' }], complete: false });
  });

  /** A server that writes the first part at once and the rest (or nothing, `cut`) 30 ms later. */
  async function deferringServer(cut: boolean) {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'multipart/mixed;boundary="graphql";deferSpec=20220824' });
      res.write(`--graphql\r\ncontent-type: application/json\r\n\r\n${JSON.stringify(initial)}\r\n--graphql\r\n`);
      setTimeout(() => {
        if (cut) res.end();
        else res.end(`content-type: application/json\r\n\r\n${JSON.stringify(later)}\r\n--graphql--\r\n`);
      }, 30);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const run = () =>
      runDeferLoop({
        url: `http://127.0.0.1:${port}/graphql`,
        connections: 2,
        durationSec: 0.5,
        body: () => '{}',
        accept: 'multipart/mixed;deferSpec=20220824',
      });
    return { run, close: () => server.close() };
  }

  it('times the first part apart from the whole answer, which waited for its last part', async () => {
    const server = await deferringServer(false);
    try {
      const result = await server.run();
      expect(result.ok).toBeGreaterThan(0);
      expect(result.errors).toBe(0);
      const first = result.firstPartSamples?.sorted() ?? new Float64Array();
      const whole = result.samples.sorted();
      expect(first.length).toBe(result.ok);
      // The last part is held 30 ms; libuv's timers count whole milliseconds of a loop time read once
      // per turn, so the hold can measure a few microseconds short of 30 ms (29.976 ms seen).
      expect(whole[0]).toBeGreaterThanOrEqual(29_000);
      // Medians: the first request of each connection also pays for its connection.
      expect(first[first.length >> 1]).toBeLessThan(whole[whole.length >> 1] as number);
    } finally {
      server.close();
    }
  });

  it('counts an answer that ends without its last part as an error, never as throughput', async () => {
    const server = await deferringServer(true);
    try {
      const result = await server.run();
      expect(result.ok).toBe(0);
      expect(result.errors).toBeGreaterThan(0);
    } finally {
      server.close();
    }
  });
});
