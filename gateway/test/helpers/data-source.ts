import { type Responder, startTestHttpServer, type TestHttpServer } from '@fedgw/test-support';
import { afterEach } from 'vitest';
import type { GatewayEvent } from '../../src/contract/index.js';
import { SubgraphDataSource, type SubgraphDataSourceOptions } from '../../src/subgraph-fetch/data-source.js';

/**
 * Data sources against real HTTP servers, for a test file: each server and data source it
 * starts is closed after each test. `defaults` are the file's options over the common ones;
 * every source records the events it emits.
 */
export function dataSources(defaults: Partial<SubgraphDataSourceOptions> = {}) {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
  });
  return {
    async startServer(responder?: Responder): Promise<TestHttpServer> {
      const server = await startTestHttpServer(responder);
      closers.push(() => server.close());
      return server;
    },
    createSource(url: string, options: Partial<SubgraphDataSourceOptions> = {}) {
      const events: GatewayEvent[] = [];
      const source = new SubgraphDataSource({
        name: 'users',
        url,
        timeoutMs: 3_000,
        connections: 4,
        keepAliveMs: 4_000,
        plugins: [{ name: 'observer', onEvent: (event) => events.push(event) }],
        ...defaults,
        ...options,
      });
      closers.push(() => source.close());
      return { source, events };
    },
  };
}
