// The processes a test file or a describe block needs, started before its tests and stopped
// after them, so each suite says what it runs and not how.
import {
  type Mount,
  type RunningGateway,
  type RunningSubgraph,
  type SubgraphName,
  startGateway,
  startSubgraphs,
} from '@fedgw/test-support';
import { afterAll, beforeAll, expect } from 'vitest';

/** The catalog's subgraphs, each on a free port, for the whole file (call it at the top level). */
export function subgraphsForFile(): () => Record<SubgraphName, RunningSubgraph> {
  let subgraphs: Record<SubgraphName, RunningSubgraph> | undefined;
  beforeAll(async () => {
    subgraphs = await startSubgraphs();
  });
  afterAll(async () => {
    await Promise.all(Object.values(subgraphs ?? {}).map((subgraph) => subgraph.stop()));
  });
  return () => {
    if (!subgraphs) throw new Error('the subgraphs start in beforeAll: read them inside a hook or a test');
    return subgraphs;
  };
}

/**
 * A gateway on `mount` for the enclosing describe block, started with `env()` (read when it
 * starts, so it may name the file's subgraphs). Stopped after the block, where it must exit 0:
 * a drain that fails is a failure of the suite.
 */
export function gatewayForBlock(mount: Mount, env: () => Record<string, string>): () => RunningGateway {
  let gateway: RunningGateway | undefined;
  beforeAll(async () => {
    gateway = await startGateway(mount, env());
  });
  afterAll(async () => {
    if (gateway) expect(await gateway.stop()).toBe(0);
  });
  return () => {
    if (!gateway) throw new Error('the gateway starts in beforeAll: read it inside a hook or a test');
    return gateway;
  };
}
