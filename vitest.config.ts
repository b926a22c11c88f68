import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: [
      // @apollo/server-integration-testsuite is written against jest's globals; vitest's are compatible.
      {
        find: '@jest/globals',
        replacement: fileURLToPath(new URL('./tests/integration-suite/jest-globals.ts', import.meta.url)),
      },
      // Vite would give inlined code graphql's ESM build while Node gives @apollo/server the CJS
      // build: two graphql realms. Resolve it as Node does (the regex spares `graphql/...` subpaths).
      { find: /^graphql$/, replacement: 'graphql/index.js' },
    ],
  },
  test: {
    include: [
      'gateway/test/**/*.test.ts',
      'adapters/test/**/*.test.ts',
      'server/test/**/*.test.ts',
      'subgraphs/test/**/*.test.ts',
      'bench/test/**/*.test.ts',
      'tests/**/*.test.ts',
    ],
    // Tests start real processes and servers on loopback; these bound a hang, they do not time anything.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The files mostly wait (on processes they start, on loopback): two at once even on two
    // cores, where vitest's default (cores - 1) would run them one by one (650 s against 370 s).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // CI=true without redis-server fails here; otherwise the suites that skipped are listed at the end.
    globalSetup: ['tests/global-setup.ts'],
    server: { deps: { inline: ['@apollo/server-integration-testsuite'] } },
  },
});
