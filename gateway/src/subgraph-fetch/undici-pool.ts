import { createRequire } from 'node:module';
import type { Pool as UndiciPool } from 'undici';

/**
 * undici's Pool from its own file (about 20 modules), not from the package index, which loads
 * every undici feature at once (fetch, WebSocket, EventSource, caches, cookies, mocks: about 110
 * modules and 3 MB of heap) where the gateway uses only `Pool#dispatch` (ADR 044). The same
 * class the index exports: gateway/test/dependencies/lazy-loading.test.ts checks it.
 */
export const Pool = createRequire(import.meta.url)('undici/lib/dispatcher/pool.js') as typeof UndiciPool;
export type Pool = UndiciPool;
