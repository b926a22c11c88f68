import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signingKey, token } from '@fedgw/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { type ClientAwarenessOptions, clientAwareness } from '../../../src/plugins/client-awareness/index.js';
import { jwtAuth } from '../../../src/plugins/jwt/index.js';
import { issueFields, optionsError } from '../helpers/options-error.js';
import { authenticate, gatewayContext, subgraphHeaders } from '../helpers/scope.js';

const dir = mkdtempSync(join(tmpdir(), 'client-awareness-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CLIENT_HEADERS = { 'apollographql-client-name': 'ios-app', 'apollographql-client-version': '2.1.0' };

describe('clientAwareness', () => {
  it('sets the client headers from JWT claims, which win over the client headers', async () => {
    const plugin = clientAwareness();
    expect(plugin.name).toBe('client-awareness');
    const context = gatewayContext({ claims: { client_name: 'web', client_version: '7.3.0' } }, CLIENT_HEADERS);
    expect(subgraphHeaders(plugin, context)).toEqual({
      'content-type': 'application/json',
      'apollographql-client-name': 'web',
      'apollographql-client-version': '7.3.0',
    });
  });

  it('falls back to the client headers for each claim the token does not have', () => {
    const plugin = clientAwareness();
    expect(subgraphHeaders(plugin, gatewayContext({}, CLIENT_HEADERS))).toEqual({
      'content-type': 'application/json',
      ...CLIENT_HEADERS,
    });
    expect(subgraphHeaders(plugin, gatewayContext({ claims: { client_name: 'web' } }, CLIENT_HEADERS))).toEqual({
      'content-type': 'application/json',
      'apollographql-client-name': 'web',
      'apollographql-client-version': '2.1.0',
    });
  });

  it('leaves the headers unset without claims or client headers', () => {
    expect(subgraphHeaders(clientAwareness(), gatewayContext({ claims: { sub: 'u' } }))).toEqual({
      'content-type': 'application/json',
    });
  });

  it('ignores claims that are not strings or numbers, and unsafe header values', () => {
    const context = gatewayContext(
      { claims: { client_name: { id: 'web' }, client_version: 3 } },
      { 'apollographql-client-name': 'bad\u0000name', 'apollographql-client-version': '1.0' },
    );
    expect(subgraphHeaders(clientAwareness(), context)).toEqual({
      'content-type': 'application/json',
      'apollographql-client-version': '3',
    });
  });

  it('reads configured claim names, and only claims with headerFallback: false', () => {
    const plugin = clientAwareness({ nameClaim: 'azp', versionClaim: 'app_ver', headerFallback: false });
    expect(subgraphHeaders(plugin, gatewayContext({ claims: { azp: 'partner-portal' } }, CLIENT_HEADERS))).toEqual({
      'content-type': 'application/json',
      'apollographql-client-name': 'partner-portal',
    });
  });

  it('works end to end with the claims jwtAuth verified', async () => {
    const key = await signingKey();
    const jwksFile = join(dir, 'jwks.json');
    writeFileSync(jwksFile, JSON.stringify({ keys: [key.jwk] }));
    const auth = jwtAuth({ jwksFile, algorithms: ['RS256'] });
    const jwt = await token(key, { claims: { client_name: 'android', client_version: '5.0.1' } });
    const identity = await authenticate(auth, { authorization: `Bearer ${jwt}` });
    const context = gatewayContext(identity, CLIENT_HEADERS);
    const outgoing = subgraphHeaders(auth, context);
    clientAwareness().onSubgraphRequest?.({ subgraph: 'users', headers: outgoing, context, query: '{ me { id } }' });
    expect(outgoing).toEqual({
      'content-type': 'application/json',
      'apollographql-client-name': 'android',
      'apollographql-client-version': '5.0.1',
    });
  });

  it('names every bad option', () => {
    const error = optionsError('client-awareness', () =>
      clientAwareness({
        nameClaim: '',
        versionClaim: 7,
        headerFallback: 'yes',
        claim: 'x',
      } as unknown as ClientAwarenessOptions),
    );
    expect(issueFields(error)).toEqual(['claim', 'headerFallback', 'nameClaim', 'versionClaim']);
  });
});
