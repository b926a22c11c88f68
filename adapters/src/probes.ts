import type { MountableGateway } from '@fedgw/gateway/contract';

/** `/health` is liveness (the process answers); `/ready` is readiness (serve traffic now?). */
export const HEALTH_PATH = '/health';
export const READY_PATH = '/ready';

export interface ProbeResponse {
  status: number;
  body: { status: string };
}

export function health(): ProbeResponse {
  return { status: 200, body: { status: 'ok' } };
}

export function readiness(gateway: Pick<MountableGateway, 'isReady'>): ProbeResponse {
  return gateway.isReady()
    ? { status: 200, body: { status: 'ready' } }
    : { status: 503, body: { status: 'unavailable' } };
}
