import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type ApiKeyAuthOptions, apiKeyAuth } from '../../../src/plugins/api-key/index.js';
import { issueFields, optionsError } from '../helpers/options-error.js';
import { authenticate, gatewayContext, rejection, subgraphHeaders } from '../helpers/scope.js';

const ALICE_KEY = 'alice-key-0123456789abcdef';
const BOB_KEY = 'bob-key-fedcba9876543210';
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

const plugin = (options: Partial<ApiKeyAuthOptions> = {}) =>
  apiKeyAuth({
    keys: [
      { consumer: 'alice', key: ALICE_KEY },
      { consumer: 'bob', sha256: sha256(BOB_KEY).toUpperCase() },
    ],
    ...options,
  });

describe('apiKeyAuth', () => {
  it('returns the consumer of a valid key, given in clear or stored hashed', async () => {
    const auth = plugin();
    expect(auth.name).toBe('api-key');
    await expect(authenticate(auth, { 'x-api-key': ALICE_KEY })).resolves.toEqual({ consumer: 'alice' });
    await expect(authenticate(auth, { 'x-api-key': BOB_KEY })).resolves.toEqual({ consumer: 'bob' });
  });

  it('answers 401 to an unknown key, without echoing it', async () => {
    const auth = plugin();
    for (const key of ['wrong', `${ALICE_KEY}x`, ALICE_KEY.slice(0, -1), sha256(BOB_KEY), 'a'.repeat(10_000)]) {
      const error = await rejection(auth, { 'x-api-key': key });
      expect(error).toMatchObject({ status: 401, code: 'UNAUTHENTICATED', message: 'Invalid API key' });
      expect(error.wwwAuthenticate).toBe('ApiKey header="x-api-key"');
      expect(error.serialized).not.toContain(key);
    }
  });

  it('answers 401 to a missing key when required (the default)', async () => {
    for (const headers of [{}, { 'x-api-key': '' }, { 'x-api-key': '   ' }, { authorization: `Bearer ${ALICE_KEY}` }]) {
      expect(await rejection(plugin(), headers)).toMatchObject({
        status: 401,
        code: 'UNAUTHENTICATED',
        message: 'API key required',
      });
    }
  });

  it('serves a request without a key as anonymous when not required, but still rejects a bad key', async () => {
    const auth = plugin({ required: false });
    await expect(authenticate(auth, {})).resolves.toBeUndefined();
    await expect(authenticate(auth, { 'x-api-key': ALICE_KEY })).resolves.toEqual({ consumer: 'alice' });
    expect(await rejection(auth, { 'x-api-key': 'wrong' })).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
  });

  it('reads a custom header', async () => {
    const auth = plugin({ header: 'X-Client-Key' });
    await expect(authenticate(auth, { 'x-client-key': ALICE_KEY })).resolves.toEqual({ consumer: 'alice' });
    expect(await rejection(auth, { 'x-api-key': ALICE_KEY })).toMatchObject({ status: 401 });
  });

  it('never sends the key to subgraphs, and sets the consumer header when configured', () => {
    const headers = { 'x-api-key': ALICE_KEY, 'x-consumer': 'spoofed', 'x-other': '1' };
    expect(subgraphHeaders(plugin(), gatewayContext({ consumer: 'alice' }), headers)).toEqual({
      'content-type': 'application/json',
      'x-consumer': 'spoofed',
      'x-other': '1',
    });
    const withConsumer = plugin({ consumerHeader: 'x-consumer', required: false });
    expect(subgraphHeaders(withConsumer, gatewayContext({ consumer: 'alice' }), headers)).toEqual({
      'content-type': 'application/json',
      'x-consumer': 'alice',
      'x-other': '1',
    });
    expect(subgraphHeaders(withConsumer, gatewayContext({}), headers)).toEqual({
      'content-type': 'application/json',
      'x-other': '1',
    });
  });

  describe('options', () => {
    it('rejects an empty or missing key list', () => {
      expect(optionsError('api-key', () => apiKeyAuth({ keys: [] })).issues).toEqual([
        { field: 'keys', message: expect.stringContaining('non-empty list') },
      ]);
      expect(issueFields(optionsError('api-key', () => apiKeyAuth({} as ApiKeyAuthOptions)))).toEqual(['keys']);
      expect(issueFields(optionsError('api-key', () => apiKeyAuth(null as never)))).toEqual(['options']);
    });

    it('names every bad entry and option at once, without printing a key', () => {
      const error = optionsError('api-key', () =>
        apiKeyAuth({
          keys: [
            { consumer: 'alice', key: ALICE_KEY },
            { consumer: 'alice', key: BOB_KEY },
            { consumer: 'carol', sha256: 'not-hex' },
            { consumer: 'dave', sha256: sha256('x').slice(0, 63) },
            { consumer: 'erin', key: 'k', sha256: sha256('k') } as never,
            { consumer: '', key: 'frank-key-123456' },
            { consumer: 'grace', sha256: sha256(ALICE_KEY) },
            { consumer: 'heidi', key: ' padded ' },
            { consumer: 'ivan' } as never,
          ],
          header: 'bad header',
          required: 'no' as never,
          consumerHeader: 'content-length',
          keyHeader: 'x',
        } as ApiKeyAuthOptions),
      );
      expect(issueFields(error)).toEqual(
        [
          'keyHeader',
          'header',
          'required',
          'consumerHeader',
          'keys[1].consumer',
          'keys[2].sha256',
          'keys[3].sha256',
          'keys[4]',
          'keys[5].consumer',
          'keys[6]',
          'keys[7].key',
          'keys[8]',
        ].sort(),
      );
      expect(error.issues.find((issue) => issue.field === 'keys[6]')?.message).toBe('same key as keys[0]');
      expect(error.message).not.toContain(ALICE_KEY);
      expect(error.message).not.toContain(BOB_KEY);
    });
  });
});
