// Process entry: `node bench/dist/soak-cli.js` (pnpm bench:soak). Only the Node version check is
// imported statically: on an older Node the bench's modules crash while loading.
import { exitOnUnsupportedNode } from '@fedgw/gateway/node-version';

exitOnUnsupportedNode(
  'bench/dist/soak-cli.js',
  '`npx --yes pnpm@10.34.9 bench:soak` (or node_modules/node/bin/node bench/dist/soak-cli.js)',
);
await import('./soak-cli-process.js');
