// Process entry: `node bench/dist/cli.js` (pnpm bench). Only the Node version check is
// imported statically: on an older Node the bench's modules crash while loading.
import { exitOnUnsupportedNode } from '@fedgw/gateway/node-version';

exitOnUnsupportedNode(
  'bench/dist/cli.js',
  '`npx --yes pnpm@10.34.9 bench` (or node_modules/node/bin/node bench/dist/cli.js)',
);
await import('./cli-process.js');
