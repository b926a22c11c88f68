export { perOperationBatching } from './per-operation.js';
export { refuseBatch } from './refuse-batch.js';
export { apolloServerWithBatching } from './server.js';
