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
  const reporter = loadReporter(options);
  // Security features a plugin enforces are accepted; @apollo/gateway is given them unmarked.
  const enforced = enforcedFeatures(options.plugins);
  return async ({ update }) => {
    const text = await options.source.read();
    const forGateway = forApolloGateway(text, enforced);
    const serving = await firstSupergraph(text, forGateway, options, reporter);
    if (options.pollIntervalMs === 0) return { supergraphSdl: forGateway };
    const reload: Reload = { options, enforced, update, reporter, serving, closed: false };
    const watcher = watchSource(reload);
    return {
      supergraphSdl: forGateway,
      cleanup: async () => {
        reload.closed = true;
        watcher.close();
      },
    };
  };
}

/** How each load is told: a `supergraph-load` event, and a rejection also logged. */
interface LoadReporter {
  emit(outcome: SupergraphLoadEvent['outcome'], reason?: string): void;
  reject(reason: string): void;
}

/** What reloading keeps: the supergraph serving, and whether the gateway has stopped. */
interface Reload {
  readonly options: SupergraphReloadOptions;
  readonly enforced: ReturnType<typeof enforcedFeatures>;
  readonly update: Parameters<SupergraphSdlHook>[0]['update'];
  readonly reporter: LoadReporter;
  serving: Supergraph;
  closed: boolean;
  /** A source that stays down is reported once per distinct failure, not at every poll. */
  lastFailure?: string;
}

function loadReporter({ source, logger, plugins }: SupergraphReloadOptions): LoadReporter {
  const emit = (outcome: SupergraphLoadEvent['outcome'], reason?: string) =>
    emitEvent(
      plugins,
      { type: 'supergraph-load', outcome, source: source.kind, ...(reason === undefined ? {} : { reason }) },
      logger,
    );
  const reject = (reason: string) => {
    logger.warn({ source: source.kind, reason }, 'new supergraph rejected; the previous one keeps serving');
    emit('rejected', reason);
  };
  return { emit, reject };
}

/** The startup supergraph: validated and offered to the plugins, or the start fails (SUPERGRAPH_INVALID). */
async function firstSupergraph(
  text: string,
  forGateway: string,
  options: SupergraphReloadOptions,
  { emit }: LoadReporter,
): Promise<Supergraph> {
  const { source, logger } = options;
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
  const serving: Supergraph = { sdl: text, schema: first.schema, subgraphs: first.subgraphs };
  const offer = await offerToPlugins(options.plugins, serving, undefined, logger);
  if (!offer.ok) refuse(offer.reason, offer.error);
  emit('applied');
  return serving;
}

/** The source polled: each new text tried, each read failure reported once. */
function watchSource(reload: Reload): { close(): void } {
  const { options, reporter } = reload;
  return options.source.watch(options.pollIntervalMs, options.clock, {
    async onText(next) {
      reload.lastFailure = undefined;
      await tryNext(reload, next);
    },
    onError(error) {
      const reason = `unreadable: ${reasonOf(error)}`;
      if (reload.closed || reason === reload.lastFailure) return;
      reload.lastFailure = reason;
      reporter.reject(reason);
    },
  });
}

/** A new supergraph: validated, still naming every override, offered to the plugins, then handed to `update`. */
async function tryNext(reload: Reload, next: string): Promise<void> {
  const { options, enforced, update, reporter } = reload;
  const { source, logger } = options;
  const nextForGateway = forApolloGateway(next, enforced);
  const checked = await validateSupergraph(nextForGateway, {
    overrides: options.overrides,
    apolloTelemetry: options.apolloTelemetry,
  });
  if (reload.closed) return; // stopped while validating: `update` would throw
  if (!checked.ok) return reporter.reject(checked.reason);
  const missing = missingOverrides(options.overrides, checked.subgraphs);
  if (missing) return reporter.reject(missing);
  const candidate: Supergraph = { sdl: next, schema: checked.schema, subgraphs: checked.subgraphs };
  const offer = await offerToPlugins(options.plugins, candidate, reload.serving, logger);
  if (reload.closed) return;
  if (!offer.ok) return reporter.reject(offer.reason);
  try {
    // Synchronous: the new schema, planner and data sources are in place when it returns.
    update(nextForGateway);
  } catch (error) {
    await offerToPlugins(options.plugins, reload.serving, undefined, logger);
    return reporter.reject(reasonOf(error));
  }
  reload.serving = candidate;
  logger.info({ source: source.kind, subgraphs: checked.subgraphs }, 'supergraph reloaded');
  reporter.emit('applied');
}

/** The rule startup applies: an override for a subgraph the supergraph lacks is a mistake. */
function missingOverrides(overrides: Readonly<Record<string, SubgraphOverride>>, subgraphs: readonly string[]) {
  const unknown = Object.keys(overrides).filter((name) => !subgraphs.includes(name));
  return unknown.length === 0 ? undefined : `no subgraph "${unknown.join('", "')}" for its SUBGRAPH_<NAME>_* override`;
}
