import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { type IncomingHttpHeaders, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  addReview,
  available,
  eventually,
  freePort,
  openStream,
  type RunningGateway,
  refusalOf,
  SUPERGRAPH_PATH,
  spawnGateway,
  startGateway,
  startRedis,
  subgraphUrlEnv,
  type TestRedis,
  type TestStream,
} from '@fedgw/test-support';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subgraphsForFile } from '../support/lifecycle.js';

/**
 * Many replicas, one behaviour (docs/operations.md#many-replicas): two gateway processes in
 * front of one redis-server, and the same again as one process tree (GATEWAY_WORKERS=2), over
 * real HTTP. What is shared (the rate limit's counts and the entity cache, both in Redis; the
 * supergraph and trusted documents, read from the same files) must look the same through
 * either process; what is per process (SUBSCRIPTION_MAX_OPEN) is shown to be.
 *
 * Every request goes on a connection of its own, to the next process in turn: the replicas
 * are taken A, B, A…; the cluster's primary hands each new connection to the next worker. Which
 * process answered is read back from its `request completed` line (x-request-id), never assumed.
 * Each request comes from a client address of its own (a trusted proxy's X-Forwarded-For), so
 * only the rate-limit test's client ever reaches the limit.
 */
const REDIS = available('redis-server', import.meta.url);
const subgraphs = subgraphsForFile();

const SECRET = 'two-replicas-secret-long-enough-0123456789abcdef';
const INVALIDATION_TOKEN = 'two-replicas-operator-token';
const RATE_LIMIT_MAX = 6;
const IN_STOCK = '  inStock: Boolean! @join__field(graph: PRODUCTS)\n';
const SUPERGRAPH = readFileSync(SUPERGRAPH_PATH, 'utf8');

const signedIn = async (subject: string) => ({
  authorization: `Bearer ${await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(subject)
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(SECRET))}`,
});

type LogLine = Record<string, unknown>;

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: { data?: Record<string, unknown> | null; errors?: { extensions?: Record<string, unknown> }[] };
  readonly requestId: string;
}

/** One POST on a connection of its own (never a pooled one: the cluster's primary hands out connections, not requests). */
function postOnce(url: string, payload: unknown, headers: Record<string, string>): Promise<Omit<Answer, 'requestId'>> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', connection: 'close', ...headers },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('error', reject);
        response.on('end', () => {
          let body: Answer['body'] = {};
          try {
            body = JSON.parse(text) as Answer['body'];
          } catch {}
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(JSON.stringify(payload));
  });
}

/** Writes a file whole and renames it over the old one, as a deploy tool (or the kubelet's symlink swap) does. */
async function replace(path: string, text: string): Promise<void> {
  await writeFile(`${path}.tmp`, text);
  await rename(`${path}.tmp`, path);
}

const supergraph = (inStock: boolean) => (inStock ? SUPERGRAPH : SUPERGRAPH.replace(IN_STOCK, ''));

/** An Apollo persisted query manifest of these operations (each id the sha256 of its body). */
function manifest(bodies: Record<string, string>): string {
  const operations = Object.entries(bodies).map(([name, body]) => ({ id: sha256(body), name, type: 'query', body }));
  return JSON.stringify({ format: 'apollo-persisted-query-manifest', version: 1, operations });
}
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const GET_USER = 'query GetUser($id: ID!) { user(id: $id) { id } }';
const GET_PRODUCT = 'query GetProduct($id: ID!) { product(id: $id) { id name } }';

/** Two gateway processes, however they run, seen from outside. */
interface Deployment {
  /** The GraphQL URL of the next process in turn (each call moves on). */
  next(): string;
  /** Every JSON log line so far, with the process (`A`/`B`, or a worker's pid) that wrote it. */
  lines(): { process: string; line: LogLine }[];
  /** The two processes that serve requests. */
  processes(): string[];
  stop(): Promise<void>;
}

async function replicas(env: Record<string, string>, metricsPorts: readonly number[]): Promise<Deployment> {
  const started: RunningGateway[] = await Promise.all(
    ['A', 'B'].map((_, index) =>
      startGateway('fastify', {
        ...env,
        METRICS_ENABLED: 'true',
        METRICS_PORT: String(metricsPorts[index]),
        ENTITY_CACHE_INVALIDATION_TOKEN: INVALIDATION_TOKEN,
      }),
    ),
  );
  let turn = 0;
  return {
    next: () => (started[turn++ % 2] as RunningGateway).url,
    lines: () =>
      started.flatMap((gateway, index) => gateway.logLines().map((line) => ({ process: 'AB'[index] as string, line }))),
    processes: () => ['A', 'B'],
    async stop() {
      expect(await Promise.all(started.map((gateway) => gateway.stop()))).toEqual([0, 0]);
    },
  };
}

async function cluster(env: Record<string, string>): Promise<Deployment> {
  const primary = await spawnGateway('fastify', { ...env, GATEWAY_WORKERS: '2' });
  const pids = () =>
    ((primary.logLines().findLast((line) => line.msg === 'cluster ready')?.pids as number[] | undefined) ?? []).map(
      String,
    );
  await eventually(() => expect(pids()).toHaveLength(2), 20_000);
  return {
    next: () => primary.url,
    lines: () =>
      primary
        .logLines()
        .filter((line) => line.pid !== undefined)
        .map((line) => ({ process: String(line.pid), line })),
    processes: pids,
    async stop() {
      expect(await primary.stop()).toBe(0);
    },
  };
}

const KINDS = ['two replicas', 'two workers (GATEWAY_WORKERS=2)'] as const;

describe.skipIf(!REDIS).each(KINDS)('%s, one redis-server', (kind) => {
  let redis: TestRedis;
  let dir: string;
  let deployment: Deployment;
  const metricsPorts: number[] = [];
  let sent = 0;
  const files = () => ({ supergraph: join(dir, 'supergraph.graphql'), manifest: join(dir, 'manifest.json') });

  beforeAll(async () => {
    redis = await startRedis();
    dir = await mkdtemp(join(tmpdir(), 'two-replicas-'));
    await replace(files().supergraph, supergraph(false));
    await replace(files().manifest, manifest({ GetUser: GET_USER }));
    const env = {
      ...subgraphUrlEnv(subgraphs()),
      SUPERGRAPH_PATH: files().supergraph,
      SUPERGRAPH_POLL_INTERVAL_MS: '100',
      TRUSTED_DOCUMENTS: files().manifest,
      TRUSTED_DOCUMENTS_MODE: 'allow-ids',
      GATEWAY_REDIS_URL: redis.url,
      GATEWAY_PLUGINS: 'jwt,rate-limit',
      JWT_SECRET: SECRET,
      JWT_ALGORITHMS: 'HS256',
      JWT_REQUIRED: 'false',
      JWT_CLAIM_HEADERS: 'sub:x-user-id',
      RATE_LIMIT_MAX: String(RATE_LIMIT_MAX),
      RATE_LIMIT_WINDOW: '5m',
      TRUSTED_PROXIES: '127.0.0.1',
      ENTITY_CACHE: 'redis',
      SUBSCRIPTION_MAX_OPEN: '1',
      // The request's log line then carries its entity cache hits and misses.
      GATEWAY_LOG_LEVEL: 'debug',
    };
    if (kind === 'two replicas') {
      metricsPorts.push(await freePort(), await freePort());
      deployment = await replicas(env, metricsPorts);
    } else {
      deployment = await cluster(env);
    }
    // The Redis entity store connects after the process starts (its lookups are bypasses until
    // then): wait until each process has looked an answer up in it.
    const looked = new Set<string>();
    await eventually(async () => {
      const { requestId } = await post({ query: '{ topProducts(first: 1) { id } }' });
      const { process, line } = await answeredBy(requestId);
      if (line.entityCache) looked.add(process);
      expect([...looked].sort()).toEqual(deployment.processes().sort());
    }, 20_000);
  });
  afterAll(async () => {
    await deployment?.stop();
    await redis?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** POSTs to the next process, as a client of its own address unless `client` names one. */
  async function post(payload: unknown, headers: Record<string, string> = {}, client?: string): Promise<Answer> {
    sent += 1;
    const requestId = `${kind === 'two replicas' ? 'replicas' : 'workers'}-${sent}`;
    const address = client ?? `10.77.${Math.floor(sent / 250)}.${(sent % 250) + 1}`;
    const answer = await postOnce(deployment.next(), payload, {
      'x-request-id': requestId,
      'x-forwarded-for': address,
      ...headers,
    });
    return { ...answer, requestId };
  }

  /** The process that answered a request, and its log line (lines reach the output within 100 ms). */
  async function answeredBy(requestId: string): Promise<{ process: string; line: LogLine }> {
    let found: { process: string; line: LogLine } | undefined;
    await eventually(() => {
      found = deployment.lines().find(({ line }) => line.msg === 'request completed' && line.requestId === requestId);
      expect(found).toBeDefined();
    });
    return found as { process: string; line: LogLine };
  }

  /** Makes `change`, then waits until every serving process has logged `msg` once more. */
  async function everyProcessLogs(msg: string, change: () => Promise<void>): Promise<void> {
    const counts = () =>
      deployment
        .processes()
        .map(
          (process) => deployment.lines().filter((entry) => entry.process === process && entry.line.msg === msg).length,
        );
    const before = counts();
    await change();
    await eventually(() =>
      expect(counts().map((count, index) => count > (before[index] as number))).toEqual([true, true]),
    );
  }

  /** Entity cache keys in Redis of one subgraph and type. */
  const keysOf = async (subgraph: string, type: string) =>
    (await redis.command('KEYS gw:ec:*'))
      .split('\r\n')
      .filter((line) => line.startsWith('gw:ec:') && line.split(':')[3] === subgraph && line.split(':')[4] === type);
  const exists = async (key: string) => (await redis.command(`EXISTS ${key}`)).trim() === ':1';

  it('counts one rate limit across both processes (RATE_LIMIT with GATEWAY_REDIS_URL)', async () => {
    const client = kind === 'two replicas' ? '203.0.113.1' : '203.0.113.2';
    const query = { query: '{ user(id: "user-1") { id } }' };
    const answers: Answer[] = [];
    for (let i = 0; i < RATE_LIMIT_MAX + 2; i += 1) answers.push(await post(query, {}, client));

    expect(answers.map((answer) => answer.status)).toEqual([...Array<number>(RATE_LIMIT_MAX).fill(200), 429, 429]);
    // One count: each allowed answer says what is left of the same budget, whichever process gave it.
    expect(answers.slice(0, RATE_LIMIT_MAX).map((answer) => Number(answer.headers['ratelimit-remaining']))).toEqual(
      Array.from({ length: RATE_LIMIT_MAX }, (_, i) => RATE_LIMIT_MAX - 1 - i),
    );
    expect(answers.at(-1)?.body.errors?.[0]?.extensions?.code).toBe('REQUEST_RATE_LIMITED');
    const allowedBy = await Promise.all(answers.slice(0, RATE_LIMIT_MAX).map((a) => answeredBy(a.requestId)));
    const refusedBy = await Promise.all(answers.slice(RATE_LIMIT_MAX).map((a) => answeredBy(a.requestId)));
    expect(new Set(allowedBy.map(({ process }) => process)).size).toBe(2);
    expect(new Set(refusedBy.map(({ process }) => process)).size).toBe(2);
  });

  it('entity cache in Redis: what one process kept the other answers from; addReview through one drops it for both', async () => {
    const productId = kind === 'two replicas' ? 'product-17' : 'product-18';
    const author = kind === 'two replicas' ? 'user-17' : 'user-18';
    const productReviews = { query: `{ product(id: "${productId}") { id reviews { id comment } } }` };
    const authorReviews = { query: `{ user(id: "${author}") { id reviews { id comment } } }` };
    const productKeysBefore = new Set(await keysOf('reviews', 'Product'));
    const userKeysBefore = new Set(await keysOf('reviews', 'User'));

    const first = await post(productReviews);
    // Kept after the answer (one pipelined SET): one entry for the product's reviews.
    let productKey = '';
    await eventually(async () => {
      const added = (await keysOf('reviews', 'Product')).filter((key) => !productKeysBefore.has(key));
      expect(added).toHaveLength(1);
      productKey = added[0] as string;
    });
    const second = await post(productReviews);
    const [firstBy, secondBy] = [await answeredBy(first.requestId), await answeredBy(second.requestId)];
    expect(secondBy.process).not.toBe(firstBy.process);
    // The other process asked no subgraph: the products root field and the reviews entity both came from Redis.
    expect(secondBy.line.entityCache).toEqual({ hits: 2, misses: 0, hitRatio: 1 });
    expect(second.body).toEqual(first.body);
    // And one for the author's reviews.
    await post(authorReviews);
    let userKey = '';
    await eventually(async () => {
      const added = (await keysOf('reviews', 'User')).filter((key) => !userKeysBefore.has(key));
      expect(added).toHaveLength(1);
      userKey = added[0] as string;
    });
    expect([await exists(productKey), await exists(userKey)]).toEqual([true, true]);

    const comment = `added through one process (${kind})`;
    const added = await post(
      { query: `mutation { addReview(productId: "${productId}", rating: 5, comment: "${comment}") { id } }` },
      await signedIn(author),
    );
    expect(added.body.errors).toBeUndefined();
    // The answer waited for the invalidation: both entries are gone from Redis before the client reads again.
    expect([await exists(productKey), await exists(userKey)]).toEqual([false, false]);

    const seen = [await post(productReviews), await post(productReviews), await post(authorReviews)];
    const comments = (answer: Answer, field: 'product' | 'user') =>
      (answer.body.data?.[field] as { reviews: { comment: string }[] } | undefined)?.reviews.map(
        (review) => review.comment,
      );
    expect(comments(seen[0] as Answer, 'product')).toContain(comment);
    expect(comments(seen[1] as Answer, 'product')).toContain(comment);
    expect(comments(seen[2] as Answer, 'user')).toContain(comment);
    const readers = await Promise.all(seen.slice(0, 2).map((answer) => answeredBy(answer.requestId)));
    expect(new Set(readers.map(({ process }) => process)).size).toBe(2);
  });

  if (kind === 'two replicas') {
    it("entity cache in Redis: the operator's invalidation on one replica's metrics listener is seen by the other at once", async () => {
      const productReviews = { query: '{ product(id: "product-19") { id reviews { id comment } } }' };
      const before = new Set(await keysOf('reviews', 'Product'));
      const kept = await post(productReviews);
      let key = '';
      await eventually(async () => {
        const added = (await keysOf('reviews', 'Product')).filter((name) => !before.has(name));
        expect(added).toHaveLength(1);
        key = added[0] as string;
      });
      const read = await post(productReviews);
      const [keptBy, readBy] = [await answeredBy(kept.requestId), await answeredBy(read.requestId)];
      expect(readBy.process).not.toBe(keptBy.process);
      expect(readBy.line.entityCache).toEqual({ hits: 2, misses: 0, hitRatio: 1 });

      // The replica that just read it invalidates it…
      const port = metricsPorts[readBy.process === 'A' ? 0 : 1];
      const invalidated = await fetch(`http://127.0.0.1:${port}/entity-cache/invalidate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${INVALIDATION_TOKEN}` },
        body: JSON.stringify([{ kind: 'entity', subgraph: 'reviews', type: 'Product', key: { id: 'product-19' } }]),
      });
      expect(invalidated.status).toBe(200);
      expect(await invalidated.json()).toEqual({ invalidated: 1 });
      expect(await exists(key)).toBe(false);

      // …and the other asks the reviews subgraph again at its next read (the products root field is still kept).
      const after = await post(productReviews);
      const afterBy = await answeredBy(after.requestId);
      expect(afterBy.process).toBe(keptBy.process);
      expect(afterBy.line.entityCache).toEqual({ hits: 1, misses: 1, hitRatio: 0.5 });
    });
  }

  it('SUBSCRIPTION_MAX_OPEN is per process: at a cap of 1, two processes admit two subscriptions, a third is refused', async () => {
    const subscription = 'subscription ($productId: ID) { reviewAdded(productId: $productId) { comment } }';
    const streams: TestStream[] = [];
    const subscribe = (productId: string) => {
      const stream = openStream(
        'ws',
        deployment.next(),
        { query: subscription, variables: { productId } },
        { headers: { 'x-forwarded-for': `198.51.100.${streams.length + 1}` } },
      );
      streams.push(stream);
      return stream;
    };
    /** Adds reviews at the subgraph until the stream has an event: its subscription is live. */
    const live = (stream: TestStream, productId: string) =>
      eventually(async () => {
        if (stream.events.length === 0)
          await addReview(subgraphs().reviews.url, { productId, rating: 3, comment: 'warm-up' });
        expect(stream.events.length).toBeGreaterThan(0);
      }, 10_000);
    try {
      // One on each process (the next connection goes to the other one): both admitted.
      await live(subscribe('product-31'), 'product-31');
      await live(subscribe('product-32'), 'product-32');
      // The next goes back to the first process, whose one slot is taken.
      const refused = await refusalOf('ws', subscribe('product-33'));
      expect(refused.map((error) => error.extensions?.code)).toEqual(['SUBSCRIPTION_MAX_LIMIT']);
      expect(refused[0]?.message).toMatch(/SUBSCRIPTION_MAX_OPEN/);
    } finally {
      for (const stream of streams) stream.stop();
    }
  });

  it('a new trusted-documents manifest reaches both processes', async () => {
    const byId = {
      extensions: { persistedQuery: { version: 1, sha256Hash: sha256(GET_PRODUCT) } },
      variables: { id: 'product-2' },
    };
    const refused = [await post(byId), await post(byId)];
    expect(refused.map((answer) => answer.body.errors?.[0]?.extensions?.code)).toEqual([
      'PERSISTED_QUERY_NOT_IN_LIST',
      'PERSISTED_QUERY_NOT_IN_LIST',
    ]);

    await everyProcessLogs('trusted documents manifest reloaded', () =>
      replace(files().manifest, manifest({ GetUser: GET_USER, GetProduct: GET_PRODUCT })),
    );

    const answered = [await post(byId), await post(byId)];
    for (const answer of answered) {
      expect(answer.status).toBe(200);
      expect(answer.body.data).toEqual({ product: { id: 'product-2', name: expect.any(String) } });
    }
    const by = await Promise.all(answered.map((answer) => answeredBy(answer.requestId)));
    expect(new Set(by.map(({ process }) => process)).size).toBe(2);
  });

  it('a new supergraph reaches both processes', async () => {
    const inStock = { query: '{ product(id: "product-1") { id inStock } }' };
    const before = [await post(inStock), await post(inStock)];
    expect(before.map((answer) => answer.body.errors?.[0]?.extensions?.code)).toEqual([
      'GRAPHQL_VALIDATION_FAILED',
      'GRAPHQL_VALIDATION_FAILED',
    ]);

    await everyProcessLogs('supergraph reloaded', () => replace(files().supergraph, supergraph(true)));

    const after = [await post(inStock), await post(inStock)];
    for (const answer of after) {
      expect(answer.status).toBe(200);
      expect(answer.body.data).toEqual({ product: { id: 'product-1', inStock: expect.any(Boolean) } });
    }
    const by = await Promise.all(after.map((answer) => answeredBy(answer.requestId)));
    expect(new Set(by.map(({ process }) => process)).size).toBe(2);
  });
});
