import { describe, expect, it } from 'vitest';
import { postGraphQL } from '../../../tests/helpers/graphql.js';
import { parseConfig } from '../../src/config/parse.js';
import { CostEstimator } from '../../src/demand-control/cost-estimator.js';
import { pluginsFromConfig } from '../../src/plugins/from-config.js';
import { captureLogger } from '../helpers/captured-logger.js';
import { closedPortUrl } from '../helpers/http-server.js';
import { serveGateway } from '../helpers/serve-gateway.js';
import { signingKey, token } from './helpers/keys.js';
import { rejection } from './helpers/scope.js';

/** The plugins as a deployment configured by environment gets them: the wiring, not the factories. */
describe('pluginsFromConfig', () => {
  it('gives the JWT plugin a logger, so a JWKS outage is logged', async () => {
    const jwksUrl = (await closedPortUrl()).replace('/graphql', '/jwks.json');
    const config = parseConfig({ GATEWAY_PLUGINS: 'jwt', JWT_JWKS_URL: jwksUrl, JWT_ALGORITHMS: 'RS256' });
    const { logger, raw } = captureLogger();
    const [jwt] = pluginsFromConfig(config, logger, new CostEstimator(10));
    if (!jwt) throw new Error('no plugin built');

    const key = await signingKey();
    const result = await rejection(jwt, { authorization: `Bearer ${await token(key)}` });

    expect(result.status).toBe(401);
    const warnings = raw.map((line) => JSON.parse(line)).filter((line) => line.msg === 'JWKS fetch failed');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, plugin: 'jwt' });
  });

  it('names the rate-limit plugin once on its log lines (Redis down, failing open)', async () => {
    const redisUrl = (await closedPortUrl()).replace('http://', 'redis://').replace('/graphql', '');
    const { logger, raw } = captureLogger();
    const { url, close } = await serveGateway({ GATEWAY_PLUGINS: 'rate-limit', REDIS_URL: redisUrl }, { logger });
    try {
      const result = await postGraphQL(url, { query: '{ __typename }' });
      expect(result.status).toBe(200);
      const line = raw.find((entry) => entry.includes('rate-limit store unavailable'));
      expect(line?.match(/"plugin":"rate-limit"/g)).toHaveLength(1);
    } finally {
      await close();
    }
  });
});
