import { fileURLToPath } from 'node:url';
import { runModuleScript } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';

// ADR 044: an ESM `import … from 'node:http'` reads every export of the module, and `http`'s lazy
// WebSocket getters then load Node's bundled undici (fetch, WebSocket: ~1 MB of heap). The
// adapters and the metrics listener take `http` by require(), so the bare mounts do not load it.
// Nest's packages import it as ESM: their patches went (ADR 051), so the Nest mounts do.

const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));
const BUNDLED_UNDICI = 'NativeModule internal/deps/undici/undici';

/** Imports `specifiers` in a fresh process from server/: did Node's bundled undici load? */
function loadsBundledUndici(specifiers: readonly string[]): boolean {
  const body = `${specifiers.map((specifier) => `await import(${JSON.stringify(specifier)});`).join('\n')}
    console.log(process.moduleLoadList.includes(${JSON.stringify(BUNDLED_UNDICI)}));`;
  return runModuleScript<boolean>(SERVER_DIR, body);
}

describe("Node's bundled undici", () => {
  it('is loaded by an ESM import of node:http (what the check below would see)', () => {
    expect(loadsBundledUndici(['node:http'])).toBe(true);
  });

  it('is not loaded by the adapters or the metrics listener', () => {
    expect(
      loadsBundledUndici([
        '@fedgw/adapters',
        '@fedgw/adapters/fastify',
        '@fedgw/adapters/express',
        './dist/metrics-server.js',
      ]),
    ).toBe(false);
  });
});
