import { accessSync, constants } from 'node:fs';
import { realClock } from '../clock.js';
import type { GatewayConfig } from '../config/types.js';
import type { GatewayPlugin } from '../contract/index.js';
import { GatewayError, GatewayErrorCode } from '../errors.js';
import type { Gateway } from '../gateway-core.js';
import type { Logger } from '../logger.js';
import {
  type MirroredQuery,
  type ShadowAnswer,
  ShadowFailure,
  type ShadowLimits,
  type ShadowTarget,
  shadow,
  urlTarget,
} from '../plugins/shadow/index.js';

/** createGateway's shape (passed in: importing it here would be a cycle). */
type BuildGateway = (config: GatewayConfig, options: { logger: Logger; plugins: readonly GatewayPlugin[] }) => Gateway;

/**
 * SHADOW_URL and/or SHADOW_SUPERGRAPH: the shadow plugin, mirroring to each; none when neither is
 * set. `build` is createGateway, passed in (it calls this): the candidate supergraph runs in a
 * second gateway built from the same config, so it plans, checks and fetches exactly as this one.
 */
export function shadowFromConfig(
  config: GatewayConfig,
  logger: Logger,
  plugins: () => readonly GatewayPlugin[],
  build: BuildGateway,
  clock = realClock,
): GatewayPlugin[] {
  const { url, supergraph, ...options } = config.shadow;
  const shadowLogger = logger.child({ component: 'shadow' });
  const targets: ShadowTarget[] = [
    ...(url ? [urlTarget(url)] : []),
    ...(supergraph ? [supergraphTarget(config, supergraph, plugins, build, shadowLogger)] : []),
  ];
  if (targets.length === 0) return [];
  return [shadow({ ...options, targets, clock, logger: shadowLogger, plugins })];
}

/**
 * SHADOW_SUPERGRAPH: a second gateway from the same config on the candidate supergraph (its own
 * pools to the same subgraphs), started on the first mirrored query and restarted after a failed
 * start. Its subgraph requests carry what this gateway's `onSubgraphRequest` hooks add (JWT
 * claims, header rules) and nothing else of its plugins: no cache, no rate limit, no metrics.
 */
function supergraphTarget(
  config: GatewayConfig,
  path: string,
  plugins: () => readonly GatewayPlugin[],
  build: BuildGateway,
  logger: Logger,
): ShadowTarget {
  assertReadable(path);
  let starting: Promise<Gateway> | undefined;
  const start = (): Promise<Gateway> => {
    starting ??= (async () => {
      const gateway = build(candidateConfig(config, path), { logger, plugins: subgraphHooksOf(plugins()) });
      await gateway.start();
      return gateway;
    })();
    starting.catch(() => {
      starting = undefined;
    });
    return starting;
  };
  return {
    name: 'supergraph',
    async send(query: MirroredQuery, limits: ShadowLimits): Promise<ShadowAnswer> {
      let gateway: Gateway;
      try {
        gateway = await start();
      } catch (error) {
        throw new ShadowFailure('failed', { cause: error });
      }
      return run(gateway, query, limits);
    },
    async close() {
      const gateway = await starting?.catch(() => undefined);
      await gateway?.stop();
    },
  };
}

/** A SHADOW_SUPERGRAPH that cannot be read stops the start (the candidate itself starts on the first mirrored query). */
function assertReadable(path: string): void {
  try {
    accessSync(path, constants.R_OK);
  } catch (cause) {
    throw new GatewayError(GatewayErrorCode.SUPERGRAPH_UNREADABLE, `cannot read SHADOW_SUPERGRAPH at ${path}`, {
      cause,
    });
  }
}

/** The query on the candidate, in a context of its own (its byte budget the shadow's) with the client's identity. */
async function run(gateway: Gateway, query: MirroredQuery, limits: ShadowLimits): Promise<ShadowAnswer> {
  // A copy of the client's scope (its override labels, headers): nothing the run does reaches the client's.
  const scope = { ...query.context.scope, appendResponseHeader: () => undefined };
  const context = { ...(await gateway.context(scope)), identity: query.context.identity };
  const response = await gateway.server.executeOperation(
    {
      query: query.query,
      variables: { ...query.variables },
      ...(query.operationName && { operationName: query.operationName }),
    },
    { contextValue: context },
  );
  if (limits.signal.aborted) throw new ShadowFailure('timeout');
  if (response.body.kind !== 'single') throw new ShadowFailure('not_graphql');
  const { data, errors } = response.body.singleResult;
  if (errors?.some((error) => error.extensions?.code === 'RESPONSE_TOO_LARGE')) throw new ShadowFailure('too_large');
  return { data, ...(errors && { errors }) };
}

/** The config the candidate runs with: its supergraph, no shadow of its own, no cache or inbound dedup, the shadow's byte cap. */
function candidateConfig(config: GatewayConfig, path: string): GatewayConfig {
  const { url: _, ...supergraph } = config.supergraph;
  return {
    ...config,
    supergraph: { ...supergraph, path },
    shadow: { ...config.shadow, url: undefined, supergraph: undefined },
    entityCache: { ...config.entityCache, store: 'off' },
    inboundDeduplicate: false,
    limits: { ...config.limits, maxResponseBytes: config.shadow.maxResponseBytes },
  } as GatewayConfig;
}

/** Only the subgraph request hooks of the gateway's plugins: what makes a subgraph request carry who asks. */
function subgraphHooksOf(plugins: readonly GatewayPlugin[]): GatewayPlugin[] {
  return plugins.flatMap((plugin) => {
    const hook = plugin.onSubgraphRequest;
    return hook && plugin.name !== 'shadow' ? [{ name: plugin.name, onSubgraphRequest: hook.bind(plugin) }] : [];
  });
}
