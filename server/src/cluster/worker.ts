import type { GatewayPlugin } from '@fedgw/gateway';
import { isClusterReady, WORKER_READY } from './messages.js';

export interface ClusterWorker {
  /** Holds this worker's `/ready` at 503 until the primary says every worker is ready. */
  readonly plugin: GatewayPlugin;
  /** Tells the primary this worker is listening. */
  reportReady(): void;
}

/**
 * The worker's side of cluster readiness. Any worker may answer a probe (they share the
 * listening socket), so each one answers 200 only while the primary's last word was "all
 * ready": it starts false, and the primary sends false again when a worker dies.
 */
export function clusterWorker(): ClusterWorker {
  let clusterReady = false;
  process.on('message', (message: unknown) => {
    if (isClusterReady(message)) clusterReady = message.ready;
  });
  return {
    plugin: { name: 'cluster-readiness', isReady: () => clusterReady },
    reportReady() {
      process.send?.(WORKER_READY);
    },
  };
}
