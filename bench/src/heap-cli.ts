// Process entry: `node bench/dist/heap-cli.js` (pnpm bench:heap). Only the Node version check is
// imported statically: on an older Node the bench's modules crash while loading.
import { exitOnUnsupportedNode } from '@fedgw/gateway/node-version';

exitOnUnsupportedNode(
  'bench/dist/heap-cli.js',
  '`npx --yes pnpm@10.34.9 bench:heap` (or node_modules/.bin/node bench/dist/heap-cli.js)',
);
await import('./heap-cli-process.js');
