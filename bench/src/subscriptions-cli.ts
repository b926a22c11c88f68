// Process entry: `node bench/dist/subscriptions-cli.js` (pnpm bench:subscriptions). Only the Node
// version check is imported statically: on an older Node the bench's modules crash while loading.
import { exitOnUnsupportedNode } from '@fedgw/gateway/node-version';

exitOnUnsupportedNode(
  'bench/dist/subscriptions-cli.js',
  '`npx --yes pnpm@10.34.9 bench:subscriptions` (or node_modules/node/bin/node bench/dist/subscriptions-cli.js)',
);
await import('./subscriptions-cli-process.js');
