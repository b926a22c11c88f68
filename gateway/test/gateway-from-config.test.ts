import { closedPortUrl, signingKey, token } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';
import { pluginsFromConfig } from '../src/compose/gateway-from-config.js';
import { parseConfig } from '../src/config/parse.js';
import { captureLogger } from './helpers/captured-logger.js';
import { rejection } from './plugins/helpers/scope.js';

/** The plugins as a deployment configured by environment gets them: the wiring, not the factories. */
describe('pluginsFromConfig', () => {
  it('gives the JWT plugin a logger, so a JWKS outage is logged', async () => {
    const jwksUrl = (await closedPortUrl()).replace('/graphql', '/jwks.json');
    const config = parseConfig({ GATEWAY_PLUGINS: 'jwt', JWT_JWKS_URL: jwksUrl, JWT_ALGORITHMS: 'RS256' });
    const { logger, raw } = captureLogger();
    const [jwt] = await pluginsFromConfig(config, logger);
    if (!jwt) throw new Error('no plugin built');

    const key = await signingKey();
    const result = await rejection(jwt, { authorization: `Bearer ${await token(key)}` });

    expect(result.status).toBe(401);
    const warnings = raw.map((line) => JSON.parse(line)).filter((line) => line.msg === 'JWKS fetch failed');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, plugin: 'jwt' });
  });
});
