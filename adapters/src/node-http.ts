import { createRequire } from 'node:module';

/**
 * `node:http` by require(), never by an ESM import: importing a built-in from ESM reads every
 * one of its exports to build the namespace, and `http`'s lazy WebSocket, MessageEvent and
 * CloseEvent getters then load Node's bundled undici (its fetch and WebSocket: about 2 MB of
 * heap and 13 MB of RSS) into a gateway that never uses them. Types still come from
 * `import type … from 'node:http'`, which loads nothing.
 */
const http = createRequire(import.meta.url)('node:http') as typeof import('node:http');

export const { createServer, STATUS_CODES } = http;
