// What every mount shares. Each framework has its own entry point, so a process loads
// only the one it serves with: `@fedgw/adapters/fastify`, `@fedgw/adapters/express`.
export type { ListeningServer, ListenOptions } from './contract.js';
export { closeGracefully } from './graceful-close.js';
export { errorBody, httpErrorResponse } from './http-errors.js';
export { listenUrl } from './listen-url.js';
export { createServer as createHttpServer } from './node-http.js';
export { type OpenConnections, type TrackedConnections, trackConnections } from './open-connections.js';
export { REQUEST_ID_HEADER } from './request-scope.js';
export { applyServerTimeouts, type ServerTimeouts } from './server-timeouts.js';
