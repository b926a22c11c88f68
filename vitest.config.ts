import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // @apollo/server-integration-testsuite is written against jest's globals; vitest's are compatible.
    alias: { '@jest/globals': fileURLToPath(new URL('./tests/helpers/jest-globals.ts', import.meta.url)) },
  },
  test: {
    include: [
      'gateway/test/**/*.test.ts',
      'adapters/test/**/*.test.ts',
      'subgraphs/test/**/*.test.ts',
      'tests/**/*.test.ts',
    ],
    // Tests start real processes and servers on loopback; these bound a hang, they do not time anything.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    server: { deps: { inline: ['@apollo/server-integration-testsuite'] } },
  },
});
