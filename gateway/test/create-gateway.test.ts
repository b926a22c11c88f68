import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SUPERGRAPH_PATH } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';
import { createGateway } from '../src/compose/create-gateway.js';
import { parseConfig } from '../src/config/parse.js';
import { GatewayError } from '../src/errors.js';
import { createLogger } from '../src/logger.js';

const silent = createLogger({ log: { level: 'silent', pretty: false } });

async function startError(env: Record<string, string>): Promise<GatewayError> {
  const gateway = createGateway(parseConfig(env), { logger: silent });
  const error = await gateway.start().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GatewayError);
  expect(gateway.isReady()).toBe(false);
  return error as GatewayError;
}

describe('createGateway', () => {
  it('loads the supergraph from a file path and becomes ready, then stops', async () => {
    const gateway = createGateway(parseConfig({ SUPERGRAPH_PATH }), { logger: silent });
    expect(gateway.isReady()).toBe(false);
    await gateway.start();
    expect(gateway.isReady()).toBe(true);
    gateway.beginDrain();
    expect(gateway.isReady()).toBe(false);
    await gateway.stop();
  });

  it('fails with ERR_GATEWAY_SUPERGRAPH_UNREADABLE for a missing file', async () => {
    const error = await startError({ SUPERGRAPH_PATH: '/nonexistent/supergraph.graphql' });
    expect(error.code).toBe('ERR_GATEWAY_SUPERGRAPH_UNREADABLE');
    expect(error.message).toContain('/nonexistent/supergraph.graphql');
  });

  it('refuses a SHADOW_SUPERGRAPH it cannot read when built, naming the setting and the path', () => {
    const build = () =>
      createGateway(parseConfig({ SUPERGRAPH_PATH, SHADOW_SUPERGRAPH: '/nonexistent/candidate.graphql' }), {
        logger: silent,
      });
    expect(build).toThrow(GatewayError);
    expect(build).toThrow('cannot read SHADOW_SUPERGRAPH at /nonexistent/candidate.graphql');
  });

  it('fails with ERR_GATEWAY_SUPERGRAPH_INVALID for a file that is not a supergraph', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gw-'));
    const path = join(dir, 'supergraph.graphql');
    await writeFile(path, 'type Query { hello: String }');
    const error = await startError({ SUPERGRAPH_PATH: path });
    expect(error.code).toBe('ERR_GATEWAY_SUPERGRAPH_INVALID');
    expect(error.cause).toBeInstanceOf(Error);
  });

  it('rejects URL overrides for subgraphs the supergraph does not have', async () => {
    const error = await startError({
      SUPERGRAPH_PATH,
      SUBGRAPH_INVENTORY_URL: 'http://127.0.0.1:1/graphql',
    });
    expect(error.code).toBe('ERR_GATEWAY_CONFIG_INVALID');
    expect(error.message).toContain('the supergraph has no subgraph "inventory" (it has: ');
  });
});
