// The process entry point (`node server/dist/main.js`). Only the Node version check is imported
// statically: on an older Node the gateway's own modules crash while loading, with a stack trace
// instead of a sentence.
import { exitOnUnsupportedNode } from '@fedgw/gateway/node-version';

exitOnUnsupportedNode('server/dist/main.js', '`npx pnpm start` (or node_modules/.bin/node server/dist/main.js)');
await import('./gateway-process.js');
