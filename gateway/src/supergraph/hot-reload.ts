import type { SupergraphSdlHook } from '@apollo/gateway';
import type { Clock } from '../clock.js';
import type { GatewayPlugin, Supergraph, SupergraphLoadEvent } from '../contract/index.js';
import { GatewayError, GatewayErrorCode } from '../errors.js';
import { emitEvent } from '../events.js';
import type { Logger } from '../logger.js';
import type { SubgraphOverride } from '../subgraph-overrides.js';
import { offerToPlugins } from './offer-to-plugins.js';
import { enforcedFeatures, forApolloGateway } from './security-features.js';
import type { SupergraphSource } from './source.js';
import { reasonOf, validateSupergraph } from './validate.js';

export interface SupergraphReloadOptions {
  source: SupergraphSource;
  /** How often the source is checked; 0: read once at startup, never again. */
  pollIntervalMs: number;
  /** What schedules the polls. Default: the real clock. */
  clock?: Clock;
  /** `config.subgraphs`: URL overrides, and names a new supergraph must still have. */
  overrides: Readonly<Record<string, SubgraphOverride>>;
  /** Shown each supergraph before it serves (`onSupergraph`); observers of `supergraph-load` events. */
  plugins: readonly GatewayPlugin[];
  logger: Logger;
  /** APOLLO_TELEMETRY, for the trial gateway each new supergraph is validated in. */
  apolloTelemetry?: boolean;
}

/**
 * The `supergraphSdl` hook of ApolloGateway: reads the first supergraph, then polls the
 * source and hands each new one that validates to `update`. A supergraph that is invalid
 * or cannot be read is logged, reported as a `rejected` event, and the one in use keeps
 * serving. The gateway calls the returned `cleanup` when it stops, which ends polling.
 */
export function supergraphHook(options: SupergraphReloadOptions): SupergraphSdlHook {
  const { source, logger } = options;
  const emit = (outcome: SupergraphLoadEvent['outcome'], reason?: string) =>
    emitEvent(
      options.plugins,
      { type: 'supergraph-load', outcome, source: source.kind, ...(reason === undefined ? {} : { reason }) },
      logger,
    );
  const reject = (reason: string) => {
    logger.warn({ source: source.kind, reason }, 'new supergraph rejected; the previous one keeps serving');
    emit('rejected', reason);
  };

  // Security features a plugin enforces are accepted; @apollo/gateway is given them unmarked.
  const enforced = enforcedFeatures(options.plugins);
  return async ({ update }) => {
    const text = await source.read();
    const forGateway = forApolloGateway(text, enforced);
    // Unknown overrides are left to the caller at startup: it reports them as configuration errors.
    const first = await validateSupergraph(forGateway, {
      overrides: options.overrides,
      apolloTelemetry: options.apolloTelemetry,
    });
    const refuse: (reason: string, error?: unknown) => never = (reason, error) => {
      emit('rejected', reason);
      throw new GatewayError(
        GatewayErrorCode.SUPERGRAPH_INVALID,
        `the supergraph ${source.description} is invalid: ${reason}`,
        {
          cause: error ?? new Error(reason),
        },
      );
    };
    if (!first.ok) refuse(first.reason, first.error);
    let serving: Supergraph = { sdl: text, schema: first.schema, subgraphs: first.subgraphs };
    const offer = await offerToPlugins(options.plugins, serving, undefined, logger);
    if (!offer.ok) refuse(offer.reason, offer.error);
    emit('applied');
    if (options.pollIntervalMs === 0) return { supergraphSdl: forGateway };

    let closed = false;
    // A source that stays down is reported once per distinct failure, not at every poll.
    let lastFailure: string | undefined;
    const watcher = source.watch(options.pollIntervalMs, options.clock, {
      async onText(next) {
        lastFailure = undefined;
        const nextForGateway = forApolloGateway(next, enforced);
        const checked = await validateSupergraph(nextForGateway, {
          overrides: options.overrides,
          apolloTelemetry: options.apolloTelemetry,
        });
        if (closed) return; // stopped while validating: `update` would throw
        if (!checked.ok) return reject(checked.reason);
        const missing = missingOverrides(options.overrides, checked.subgraphs);
        if (missing) return reject(missing);
        const candidate: Supergraph = { sdl: next, schema: checked.schema, subgraphs: checked.subgraphs };
        const offer = await offerToPlugins(options.plugins, candidate, serving, logger);
        if (closed) return;
        if (!offer.ok) return reject(offer.reason);
        try {
          // Synchronous: the new schema, planner and data sources are in place when it returns.
          update(nextForGateway);
        } catch (error) {
          await offerToPlugins(options.plugins, serving, undefined, logger);
          return reject(reasonOf(error));
        }
        serving = candidate;
        logger.info({ source: source.kind, subgraphs: checked.subgraphs }, 'supergraph reloaded');
        emit('applied');
      },
      onError(error) {
        const reason = `unreadable: ${reasonOf(error)}`;
        if (closed || reason === lastFailure) return;
        lastFailure = reason;
        reject(reason);
      },
    });
    return {
      supergraphSdl: forGateway,
      cleanup: async () => {
        closed = true;
        watcher.close();
      },
    };
  };
}

/** The rule startup applies: an override for a subgraph the supergraph lacks is a mistake. */
function missingOverrides(overrides: Readonly<Record<string, SubgraphOverride>>, subgraphs: readonly string[]) {
  const unknown = Object.keys(overrides).filter((name) => !subgraphs.includes(name));
  return unknown.length === 0 ? undefined : `no subgraph "${unknown.join('", "')}" for its SUBGRAPH_<NAME>_* override`;
}
