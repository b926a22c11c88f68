import { closedPortUrl, postGraphQL } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';
import { captureLogger } from './helpers/captured-logger.js';
import { serveGateway } from './helpers/serve-gateway.js';

/** The plugins GATEWAY_PLUGINS names, as a deployment configured by environment gets them. */
describe('createGatewayFromConfig over HTTP', () => {
  it('names the rate-limit plugin once on its log lines (Redis down, failing open)', async () => {
    const redisUrl = (await closedPortUrl()).replace('http://', 'redis://').replace('/graphql', '');
    const { logger, raw } = captureLogger();
    const { url, close } = await serveGateway(
      { GATEWAY_PLUGINS: 'rate-limit', GATEWAY_REDIS_URL: redisUrl },
      { logger },
    );
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
