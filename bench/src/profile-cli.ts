// Process entry: `node bench/dist/profile-cli.js` (pnpm bench:profile). Only the Node version check is
// imported statically: on an older Node the bench's modules crash while loading.
import { exitOnUnsupportedNode } from '@fedgw/gateway/node-version';

exitOnUnsupportedNode(
  'bench/dist/profile-cli.js',
  '`npx --yes pnpm@10.34.9 bench:profile` (or node_modules/node/bin/node bench/dist/profile-cli.js)',
);
await import('./profile-cli-process.js');
