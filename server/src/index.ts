// The deployable gateway: `main.ts` is the process; `serveGateway` the same from code.
// NestJS is under `./nest` (`@fedgw/server/nest`), loaded only for GATEWAY_RUNTIME=nest.
export { type RunningGateway, serveGateway } from './serve.js';
export { installShutdown } from './shutdown.js';
export { lowerV8WorkerPriority } from './v8-worker-priority.js';
