// The IPC messages between the cluster primary and its workers (process.send).

/** Worker → primary: this worker's gateway is started and listening. */
export interface WorkerReadyMessage {
  readonly type: 'fedgw:worker-ready';
}

/** Primary → workers: whether every worker is ready, so `/ready` may answer 200. */
export interface ClusterReadyMessage {
  readonly type: 'fedgw:cluster-ready';
  readonly ready: boolean;
}

export const WORKER_READY: WorkerReadyMessage = { type: 'fedgw:worker-ready' };

export function clusterReady(ready: boolean): ClusterReadyMessage {
  return { type: 'fedgw:cluster-ready', ready };
}

export function isWorkerReady(message: unknown): message is WorkerReadyMessage {
  return (message as { type?: unknown } | null)?.type === WORKER_READY.type;
}

export function isClusterReady(message: unknown): message is ClusterReadyMessage {
  return (message as { type?: unknown } | null)?.type === 'fedgw:cluster-ready';
}
