import { spawnNode } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';

describe('the gateway process', () => {
  it('exits 1 on bad configuration, naming every bad variable', async () => {
    const started = spawnNode(
      'server/dist/main.js',
      { GATEWAY_LISTEN_PORT: 'eighty', GATEWAY_ADAPTER: 'koa' },
      /never/,
    );
    await expect(started).rejects.toThrow(/exited with 1 before it was ready/);
    const message = String(await started.catch((error: Error) => error.message));
    expect(message).toContain('ERR_GATEWAY_CONFIG_INVALID');
    expect(message).toContain('GATEWAY_LISTEN_PORT: expected an integer');
    expect(message).toContain('GATEWAY_ADAPTER: expected one of fastify | express, got "koa"');
  });
});
