import { SUPERGRAPH_PATH } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';
import { createGateway } from '../../../src/compose/create-gateway.js';
import { parseConfig } from '../../../src/config/parse.js';
import type { GatewayConfig } from '../../../src/config/types.js';
import type { GatewayEvent } from '../../../src/contract/index.js';
import { GatewayConfigError, PluginOptionsError } from '../../../src/errors.js';
import { createLogger } from '../../../src/logger.js';
import { apolloManifest, manifestFile } from './fixtures.js';

const silent = createLogger({ log: { level: 'silent', pretty: false } });

function configError(env: Record<string, string>): GatewayConfigError {
  try {
    parseConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayConfigError);
    return error as GatewayConfigError;
  }
  throw new Error('expected a GatewayConfigError');
}

describe('TRUSTED_DOCUMENTS settings', () => {
  it('are off without a manifest, and enforce one given without a mode (its path resolved)', () => {
    expect(parseConfig({}).trustedDocuments).toEqual({ mode: 'off' });
    expect(parseConfig({ TRUSTED_DOCUMENTS: 'pq/manifest.json' }, { cwd: '/srv/gateway' }).trustedDocuments).toEqual({
      manifestPath: '/srv/gateway/pq/manifest.json',
      mode: 'enforce',
    });
    expect(
      parseConfig({ TRUSTED_DOCUMENTS: '/m.json', TRUSTED_DOCUMENTS_MODE: 'allow-ids' }).trustedDocuments.mode,
    ).toBe('allow-ids');
  });

  it('reject a mode that needs a manifest without one, and an unknown mode', () => {
    expect(configError({ TRUSTED_DOCUMENTS_MODE: 'enforce' }).issues).toEqual([
      { field: 'TRUSTED_DOCUMENTS_MODE', message: 'enforce needs a manifest: set TRUSTED_DOCUMENTS' },
    ]);
    expect(configError({ TRUSTED_DOCUMENTS: '/m.json', TRUSTED_DOCUMENTS_MODE: 'strict' }).issues).toEqual([
      { field: 'TRUSTED_DOCUMENTS_MODE', message: 'expected one of off | allow-ids | enforce, got "strict"' },
    ]);
  });
});

describe('createGateway with TRUSTED_DOCUMENTS', () => {
  it('fails to build with an invalid manifest, and does not read it when the mode is off', async () => {
    const path = await manifestFile('{"format": "apollo-persisted-query-manifest", "version": 1, "operations": []}');
    expect(() => createGateway(parseConfig({ SUPERGRAPH_PATH, TRUSTED_DOCUMENTS: path }), { logger: silent })).toThrow(
      PluginOptionsError,
    );
    const off = createGateway(
      parseConfig({ SUPERGRAPH_PATH, TRUSTED_DOCUMENTS: path, TRUSTED_DOCUMENTS_MODE: 'off' }),
      {
        logger: silent,
      },
    );
    // Built without reading the (invalid) manifest; the gateway keeps the whole config it was given.
    expect((off.config as GatewayConfig).trustedDocuments.mode).toBe('off');
  });

  it("reports the manifest's load to every plugin that observes events", async () => {
    const path = await manifestFile(apolloManifest(['{ me { id } }', 'query A { me { name } }']));
    const events: GatewayEvent[] = [];
    const gateway = createGateway(
      parseConfig({ SUPERGRAPH_PATH, TRUSTED_DOCUMENTS: path, SUPERGRAPH_POLL_INTERVAL_MS: '0' }),
      { logger: silent, plugins: [{ name: 'observer', onEvent: (event) => events.push(event) }] },
    );
    await gateway.start();
    await gateway.stop();
    expect(events.filter((event) => event.type === 'trusted-documents-load')).toEqual([
      { type: 'trusted-documents-load', outcome: 'applied', documents: 2 },
    ]);
  });
});
