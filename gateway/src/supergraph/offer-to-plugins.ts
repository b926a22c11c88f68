import type { GatewayPlugin, Supergraph } from '../contract/index.js';
import type { Logger } from '../logger.js';
import { reasonOf } from './validate.js';

export type Offer = { ok: true } | { ok: false; reason: string; error: unknown };

/**
 * Shows `next` to each plugin's `onSupergraph`, in order. When one throws, the supergraph is
 * refused, and the plugins that had already taken it are shown `previous` again (none at
 * startup), so no plugin is left on a supergraph that does not serve.
 */
export async function offerToPlugins(
  plugins: readonly GatewayPlugin[],
  next: Supergraph,
  previous: Supergraph | undefined,
  logger: Logger,
): Promise<Offer> {
  const hooks = plugins.filter((plugin) => plugin.onSupergraph);
  for (const [index, plugin] of hooks.entries()) {
    try {
      await plugin.onSupergraph?.(next);
    } catch (error) {
      if (previous) await restore(hooks.slice(0, index), previous, logger);
      return { ok: false, reason: `plugin ${plugin.name} refused it: ${reasonOf(error)}`, error };
    }
  }
  return { ok: true };
}

async function restore(plugins: readonly GatewayPlugin[], previous: Supergraph, logger: Logger): Promise<void> {
  for (const plugin of plugins) {
    try {
      await plugin.onSupergraph?.(previous);
    } catch (error) {
      logger.error({ err: error, plugin: plugin.name }, 'plugin onSupergraph failed on the supergraph it had before');
    }
  }
}
