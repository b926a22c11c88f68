import type { GatewayConfig } from '../config/types.js';
import type { GatewayPlugin } from '../contract/index.js';
import { emitEvent } from '../events.js';
import type { Logger } from '../logger.js';
import { trustedDocuments } from '../plugins/trusted-documents/index.js';

/**
 * The trusted-documents plugin TRUSTED_DOCUMENTS configures, or none. createGateway puts
 * it before its own checks; `observers` is read when an event is emitted (after the
 * gateway's plugin list exists), so the plugin can report its loads to all of them.
 * It reloads the manifest as often as the supergraph is polled.
 */
export function trustedDocumentsFromConfig(
  config: GatewayConfig,
  logger: Logger,
  observers: () => readonly GatewayPlugin[],
): GatewayPlugin[] {
  const { manifestPath, mode } = config.trustedDocuments;
  if (manifestPath === undefined || mode === 'off') return [];
  const child = logger.child({ component: 'trusted-documents' });
  return [
    trustedDocuments({
      manifestPath,
      mode,
      pollIntervalMs: config.supergraph.pollIntervalMs,
      logger: child,
      emit: (event) => emitEvent(observers(), event, child),
    }),
  ];
}
