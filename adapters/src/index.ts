export type {
  ListeningServer,
  ListenOptions,
  MountableGateway,
  RequestScope,
} from './contract.js';
export { listenExpress, mountExpress } from './express.js';
export { listenFastify, mountFastify } from './fastify.js';
export { closeGracefully } from './graceful-close.js';
export { errorBody, httpErrorResponse } from './http-errors.js';
export { REQUEST_ID_HEADER } from './request-scope.js';
export { applyServerTimeouts, type ServerTimeouts } from './server-timeouts.js';
