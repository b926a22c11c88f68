import type { IncomingMessage, ServerResponse } from 'node:http';
import { createLogger, parseConfig } from '@fedgw/gateway';
import { type RunningGateway, serveGateway } from '@fedgw/server';
import {
  type CapturedLines,
  captureLines,
  eventually,
  MOUNTS,
  type Mount,
  mountEnv,
  openStream,
  postGraphQL,
  SUPERGRAPH_PATH,
  startTestHttpServer,
  subgraphUrlEnv,
  type TestHttpServer,
  untilLive,
} from '@fedgw/test-support';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { policyService } from '../../docs/examples/policy-service/policy-service.js';
import { subgraphsForFile } from '../support/lifecycle.js';

/**
 * Apollo Router's authorization options over real HTTP on every mount: where refusals are
 * reported (AUTHORIZATION_ERRORS), the refusal log (AUTHORIZATION_LOG), a dry run
 * (AUTHORIZATION_DRY_RUN), directives turned off (AUTHORIZATION_DIRECTIVES_ENABLED), and
 * `@policy` decided by a policy service (the docs' example decider) that may be slow or fail.
 * The gateways run in this process (`serveGateway`, as main.ts does) so the decider is real code
 * and the log lines can be read; the subgraphs and the policy service are real HTTP servers.
 */
const SECRET = 'authorization-options-secret-long-enough-0123456789';
const ADDRESS = '{ user(id: "user-1") { id name address } }';
const PAYMENTS = '{ user(id: "user-1") { orderHistory { id paymentReference } } }';

const subgraphs = subgraphsForFile();

/** The policy service: grants `support` to `support-user`, hangs for `slow-user`, fails for `broken-user`. */
let service: TestHttpServer;
/** Calls to the service that the gateway gave up on (their connection closed before an answer). */
let abandoned = 0;
beforeAll(async () => {
  service = await startTestHttpServer((_request: IncomingMessage, response: ServerResponse, body: string) => {
    const { subject } = JSON.parse(body) as { subject: string | null };
    if (subject === 'slow-user') {
      response.on('close', () => abandoned++);
      return; // never answers
    }
    const status = subject === 'broken-user' ? 500 : 200;
    const answer = JSON.stringify({ granted: subject === 'support-user' ? ['support'] : [] });
    response.writeHead(status, { 'content-type': 'application/json' }).end(answer);
  });
});
afterAll(async () => {
  await service?.close();
});

async function as(subject: string, claims: Record<string, unknown> = {}): Promise<Record<string, string>> {
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(subject)
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(SECRET));
  return { authorization: `Bearer ${token}` };
}

const unauthorized = (...path: string[]) => ({
  message: 'Unauthorized field or type',
  path,
  extensions: { code: 'UNAUTHORIZED_FIELD_OR_TYPE' },
});

interface Served {
  readonly url: string;
  readonly logs: CapturedLines;
}

/** A gateway on `mount` for the enclosing block, in this process, with `env` and the policy service. */
function gatewayForBlock(mount: Mount, env: () => Record<string, string>): () => Served {
  let running: RunningGateway | undefined;
  let served: Served | undefined;
  beforeAll(async () => {
    const config = parseConfig({
      SUPERGRAPH_PATH,
      GATEWAY_LISTEN_HOST: '127.0.0.1',
      GATEWAY_LISTEN_PORT: '0',
      ...mountEnv(mount),
      ...subgraphUrlEnv(subgraphs()),
      GATEWAY_PLUGINS: 'jwt',
      JWT_SECRET: SECRET,
      JWT_ALGORITHMS: 'HS256',
      JWT_REQUIRED: 'false',
      ...env(),
    });
    const logs = captureLines();
    const logger = createLogger({ log: { level: 'info', pretty: false } }, logs.stream);
    running = await serveGateway(config, logger, [], { policies: policyService(service.url) });
    served = { url: `${running.url}${config.graphqlPath}`, logs };
  });
  afterAll(async () => {
    await running?.close();
  });
  return () => {
    if (!served) throw new Error('the gateway starts in beforeAll');
    return served;
  };
}

const field = (value: unknown, name: string): unknown => (value as Record<string, unknown> | null | undefined)?.[name];
/** An answer's `extensions` (the test client's type leaves them out). */
const extensionsOf = (body: object): unknown => (body as { extensions?: unknown }).extensions;
const messages = (logs: CapturedLines) => logs.lines.map((line) => line.msg);

describe.each(MOUNTS)('authorization options on %s', (mount) => {
  describe('AUTHORIZATION_ERRORS=extensions, the refusal log, a policy service (timeout 1 s)', () => {
    const gateway = gatewayForBlock(mount, () => ({
      AUTHORIZATION_ERRORS: 'extensions',
      AUTHORIZATION_POLICY_TIMEOUT_MS: '1000',
    }));

    it('a refused field is null; its error is in extensions.authorizationErrors, not in errors', async () => {
      const result = await postGraphQL(gateway().url, { query: ADDRESS });
      expect(result.status).toBe(200);
      expect(result.body.errors).toBeUndefined();
      expect(result.body.data).toEqual({ user: null });
      expect(extensionsOf(result.body)).toEqual({ authorizationErrors: [unauthorized('user', 'address')] });
    });

    it("a deferred block's refusals are reported in the first part's extensions (its paths are known from the operation)", async () => {
      const response = await fetch(gateway().url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'multipart/mixed;deferSpec=20220824' },
        body: JSON.stringify({ query: '{ user(id: "user-1") { id ... @defer(label: "private") { address } } }' }),
      });
      // The multipart body Apollo Server writes: parts between `---` boundaries, each after its headers.
      const parts = (await response.text())
        .split('\r\n---')
        .slice(1, -1)
        .map((part) => JSON.parse(part.slice(part.indexOf('\r\n\r\n') + 4)) as { incremental?: unknown[] });
      expect(parts[0]).toEqual({
        data: { user: { id: 'user-1' } },
        extensions: { authorizationErrors: [unauthorized('user', '... on ', 'address')] },
        hasNext: true,
      });
      expect(parts.flatMap((part) => part.incremental ?? [])).toEqual([
        {
          data: null,
          path: ['user'],
          label: 'private',
          // A part its refusals made null carries them again, so a null part comes with its reason.
          extensions: { authorizationErrors: [unauthorized('user', '... on ', 'address')] },
        },
      ]);
    });

    it('logs one info line per request with refusals: its id and paths, never the token', async () => {
      const { logs } = gateway();
      const headers = await as('user-3');
      const before = logs.lines.length;
      await postGraphQL(gateway().url, { query: PAYMENTS }, headers);
      const line = logs.lines.slice(before).find((entry) => entry.msg === 'authorization refused fields');
      expect(line).toMatchObject({
        level: 30,
        outcome: 'filtered',
        refused: 1,
        // As Apollo Router writes paths: a refused list-typed field ends in `@`.
        paths: ['user.orderHistory.@'],
        requestId: expect.any(String),
      });
      const token = (headers.authorization as string).slice('Bearer '.length);
      expect(logs.raw.join('\n')).not.toContain(token);
      // Who it was is on the request's own line (request-log), joined by the request id.
      expect(JSON.stringify(line)).not.toContain('user-3');
    });

    it('the policy service grants per identity; a refusal from it is a filtered field', async () => {
      const granted = await postGraphQL(
        gateway().url,
        { query: PAYMENTS },
        await as('support-user', { scope: 'orders:read' }),
      );
      expect(granted.body.errors).toBeUndefined();
      const orders = field(granted.body.data?.user, 'orderHistory') as { paymentReference: string }[];
      expect(orders.length).toBeGreaterThan(0);
      expect(orders.every((order) => typeof order.paymentReference === 'string')).toBe(true);
      const refused = await postGraphQL(
        gateway().url,
        { query: PAYMENTS },
        await as('user-3', { scope: 'orders:read' }),
      );
      expect(extensionsOf(refused.body)).toEqual({
        authorizationErrors: [unauthorized('user', 'orderHistory', '@', 'paymentReference')],
      });
    });

    it('a slow policy service: that request is refused 503 (its call aborted); another client is answered meanwhile', async () => {
      const abandonedBefore = abandoned;
      const settled: string[] = [];
      const slow = postGraphQL(
        gateway().url,
        { query: PAYMENTS },
        await as('slow-user', { scope: 'orders:read' }),
      ).then((result) => {
        settled.push('slow');
        return result;
      });
      await eventually(() => expect(service.requests.some((request) => request.body.includes('slow-user'))).toBe(true));
      const other = await postGraphQL(
        gateway().url,
        { query: PAYMENTS },
        await as('support-user', { scope: 'orders:read' }),
      );
      settled.push('other');
      expect(other.body.errors).toBeUndefined();
      expect(field(other.body.data?.user, 'orderHistory')).toEqual(expect.any(Array));

      const refused = await slow;
      expect(settled).toEqual(['other', 'slow']);
      expect(refused.status).toBe(503);
      expect(refused.body.data).toBeUndefined();
      expect(refused.body.errors).toEqual([
        expect.objectContaining({ extensions: { code: 'AUTHORIZATION_POLICY_UNAVAILABLE' } }),
      ]);
      await eventually(() => expect(abandoned).toBeGreaterThan(abandonedBefore));
      service.requests.length = 0;
    });

    it('a policy service that fails: refused 503 (fail closed, logged); an operation needing no policy is not asked', async () => {
      const headers = await as('broken-user', { scope: 'orders:read' });
      const refused = await postGraphQL(gateway().url, { query: PAYMENTS }, headers);
      expect(refused.status).toBe(503);
      expect(refused.body.errors?.[0]?.extensions?.code).toBe('AUTHORIZATION_POLICY_UNAVAILABLE');
      expect(messages(gateway().logs)).toContain('no policy decision: request refused');
      const asked = service.requests.length;
      const unguarded = await postGraphQL(gateway().url, { query: '{ user(id: "user-1") { name } }' }, headers);
      expect(unguarded.body).toEqual({ data: { user: { name: expect.any(String) } } });
      expect(service.requests.length).toBe(asked);
    });
  });

  describe('AUTHORIZATION_DRY_RUN=true (with AUTHORIZATION_MODE=reject): reported and logged, nothing refused', () => {
    const gateway = gatewayForBlock(mount, () => ({ AUTHORIZATION_DRY_RUN: 'true', AUTHORIZATION_MODE: 'reject' }));

    it('answers every field, with an error at each path that would be refused (list items as @)', async () => {
      const anonymous = await postGraphQL(gateway().url, { query: ADDRESS });
      expect(anonymous.status).toBe(200);
      expect(field(anonymous.body.data?.user, 'address')).toMatch(/Main Street$/);
      expect(anonymous.body.errors).toEqual([unauthorized('user', 'address')]);

      const payments = await postGraphQL(
        gateway().url,
        { query: PAYMENTS },
        await as('user-3', { scope: 'orders:read' }),
      );
      const orders = field(payments.body.data?.user, 'orderHistory') as { paymentReference: string }[];
      expect(orders.every((order) => typeof order.paymentReference === 'string')).toBe(true);
      expect(payments.body.errors).toEqual([unauthorized('user', 'orderHistory', '@', 'paymentReference')]);
    });

    it('a failing policy service refuses nothing in a dry run: reported as would-be refusals', async () => {
      const result = await postGraphQL(
        gateway().url,
        { query: PAYMENTS },
        await as('broken-user', { scope: 'orders:read' }),
      );
      expect(result.status).toBe(200);
      expect(result.body.errors).toEqual([unauthorized('user', 'orderHistory', '@', 'paymentReference')]);
    });

    it('a subscription runs as written; each event reports what would be refused', async () => {
      const productId = `product-${440 + MOUNTS.indexOf(mount)}`;
      const query = `subscription { reviewAdded(productId: "${productId}") { author { name address } } }`;
      const stream = openStream('sse', gateway().url, { query });
      try {
        // Reviews until the subscription is live and one arrives.
        await untilLive(subgraphs().reviews.url, [stream], productId);
        expect(stream.events[0]).toEqual({
          data: {
            reviewAdded: { author: { name: expect.any(String), address: expect.stringMatching(/Main Street$/) } },
          },
          errors: [unauthorized('reviewAdded', 'author', 'address')],
        });
      } finally {
        stream.stop();
      }
    });

    it('logs what would have been refused', () => {
      expect(gateway().logs.lines).toContainEqual(
        expect.objectContaining({
          msg: 'authorization would refuse fields (dry run)',
          outcome: 'dry-run',
          paths: ['user.address'],
        }),
      );
    });
  });

  describe('AUTHORIZATION_ERRORS=disabled, AUTHORIZATION_LOG=false', () => {
    const gateway = gatewayForBlock(mount, () => ({ AUTHORIZATION_ERRORS: 'disabled', AUTHORIZATION_LOG: 'false' }));

    it('the refused field is null, with no error anywhere and no log line', async () => {
      const result = await postGraphQL(gateway().url, { query: ADDRESS });
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ data: { user: null } });
      expect(messages(gateway().logs)).not.toContain('authorization refused fields');
    });
  });

  describe('AUTHORIZATION_DIRECTIVES_ENABLED=false', () => {
    const gateway = gatewayForBlock(mount, () => ({ AUTHORIZATION_DIRECTIVES_ENABLED: 'false' }));

    it('warns at startup, then serves every field to every caller', async () => {
      expect(gateway().logs.lines).toContainEqual(
        expect.objectContaining({ level: 40, msg: expect.stringContaining('are NOT enforced') }),
      );
      const result = await postGraphQL(gateway().url, { query: ADDRESS });
      expect(result.body.errors).toBeUndefined();
      expect(field(result.body.data?.user, 'address')).toMatch(/Main Street$/);
    });
  });
});
