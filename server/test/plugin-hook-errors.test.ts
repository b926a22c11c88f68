import { type GatewayPlugin, httpError } from '@fedgw/gateway';
import { postGraphQL } from '@fedgw/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { captureLogger } from './helpers/captured-logger.js';
import { type ServedGateway, serveGateway } from './helpers/serve-gateway.js';

/** The plugin contract when a hook throws: a bug is logged with the plugin's name and answered as an internal error. */
describe('a plugin whose authenticate hook throws', () => {
  let served: ServedGateway | undefined;
  afterEach(async () => {
    await served?.close();
  });

  it('a bug: 500 INTERNAL_SERVER_ERROR, logged at error with the plugin name and request id', async () => {
    const log = captureLogger();
    const buggy: GatewayPlugin = {
      name: 'buggy-auth',
      authenticate() {
        throw new TypeError('cannot read properties of undefined');
      },
    };
    served = await serveGateway({}, { logger: log.logger, plugins: [buggy] });

    const result = await postGraphQL(served.url, { query: '{ __typename }' }, { 'x-request-id': 'req-bug-1' });

    expect(result.status).toBe(500);
    expect(result.body.errors?.[0]?.extensions?.code).toBe('INTERNAL_SERVER_ERROR');
    expect(result.text).not.toContain('cannot read properties');
    expect(log.lines.find((line) => line.msg === 'plugin authenticate hook failed')).toMatchObject({
      level: 50,
      plugin: 'buggy-auth',
      requestId: 'req-bug-1',
    });
  });

  it('a rejection made with httpError keeps its status and code, and is not logged as a bug', async () => {
    const log = captureLogger();
    const strict: GatewayPlugin = {
      name: 'strict-auth',
      authenticate() {
        throw httpError('UNAUTHENTICATED', 'No credential.');
      },
    };
    served = await serveGateway({}, { logger: log.logger, plugins: [strict] });

    const result = await postGraphQL(served.url, { query: '{ __typename }' });

    expect(result.status).toBe(401);
    expect(result.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(log.lines.some((line) => line.msg === 'plugin authenticate hook failed')).toBe(false);
  });
});
