import type { GatewayContext, GatewayPlugin } from '@fedgw/gateway';
import { postGraphQL } from '@fedgw/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { type ServedGateway, serveGateway } from './helpers/serve-gateway.js';

// A custom auth plugin's own fact, added to Identity without editing the core.
declare module '@fedgw/gateway' {
  interface Identity {
    readonly tenant?: string;
  }
}

describe('Identity: a custom auth plugin adds its own facts', () => {
  let served: ServedGateway | undefined;
  afterEach(async () => {
    await served?.close();
  });

  it('types and carries the fact to the request context', async () => {
    const seen: (string | undefined)[] = [];
    const tenantAuth: GatewayPlugin = {
      name: 'tenant-auth',
      authenticate: (scope) => ({ tenant: String(scope.headers['x-tenant']) }),
      apollo: {
        async requestDidStart({ contextValue }: { contextValue: GatewayContext }) {
          seen.push(contextValue.identity.tenant);
        },
      },
    };
    served = await serveGateway({}, { plugins: [tenantAuth] });
    const result = await postGraphQL(served.url, { query: '{ __typename }' }, { 'x-tenant': 'acme' });
    expect(result.status).toBe(200);
    expect(seen).toEqual(['acme']);
  });
});
