// Process entry: `node bench/dist/readme-cli.js` (pnpm bench:readme). Only the Node version check is
// imported statically: on an older Node the bench's modules crash while loading.
import { exitOnUnsupportedNode } from '@fedgw/gateway/node-version';

exitOnUnsupportedNode(
  'bench/dist/readme-cli.js',
  '`npx --yes pnpm@10.34.9 bench:readme` (or node_modules/node/bin/node bench/dist/readme-cli.js)',
);
await import('./readme-cli-process.js');
