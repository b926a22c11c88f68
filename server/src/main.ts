// The process entry point (`node server/dist/main.js`). Only the Node version check and the V8
// memory defaults are imported statically: on an older Node the gateway's own modules crash
// while loading, with a stack trace instead of a sentence.
import { exitOnUnsupportedNode } from '@fedgw/gateway/node-version';
import { applyMemoryDefaults, relaunchWithStartupDefaults } from './memory-defaults.js';

exitOnUnsupportedNode(
  'server/dist/main.js',
  '`npx --yes pnpm@10.34.9 start` (or node_modules/node/bin/node server/dist/main.js)',
);
// Before anything else runs: the relaunched process starts here again, with the flags named.
relaunchWithStartupDefaults();
applyMemoryDefaults();
await import('./gateway-process.js');
