import type { GatewayEvent, GatewayPlugin } from './contract/index.js';
import type { Logger } from './logger.js';

/** Plugins whose observer already failed once: logged once, so a broken observer cannot flood the log. */
const reported = new WeakSet<GatewayPlugin>();

/**
 * Hands one event to every plugin that observes events. An observer that throws is a bug
 * in that plugin: it must not fail the request or the reload that emitted the event.
 */
export function emitEvent(plugins: readonly GatewayPlugin[], event: GatewayEvent, logger?: Logger): void {
  for (const plugin of plugins) {
    if (!plugin.onEvent) continue;
    try {
      plugin.onEvent(event);
    } catch (error) {
      if (reported.has(plugin)) continue;
      reported.add(plugin);
      logger?.error({ err: error, plugin: plugin.name, event: event.type }, 'plugin onEvent hook failed');
    }
  }
}
