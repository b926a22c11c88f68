import { closedPortUrl, postGraphQL, startGateway } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';
import { CONFIG_FIELDS, type ConfigWarning, parseConfig, settingOf } from '../../gateway/src/config/parse.js';

// Class: the platform sets a variable that shadows a setting. Kubernetes injects, for every
// Service in the namespace, `<NAME>_PORT=tcp://…`, `<NAME>_SERVICE_HOST`, `<NAME>_PORT_<n>_TCP…`.
// A Service named after a setting must not stop the gateway (it exited 1 for `metrics`).

const IP = '10.0.0.9';
/** What Kubernetes injects for a Service whose variable prefix is `prefix`, port 4090. */
const serviceLinks = (prefix: string): Record<string, string> => ({
  [`${prefix}_SERVICE_HOST`]: IP,
  [`${prefix}_SERVICE_PORT`]: '4090',
  [`${prefix}_PORT`]: `tcp://${IP}:4090`,
  [`${prefix}_PORT_4090_TCP`]: `tcp://${IP}:4090`,
  [`${prefix}_PORT_4090_TCP_PROTO`]: 'tcp',
  [`${prefix}_PORT_4090_TCP_PORT`]: '4090',
  [`${prefix}_PORT_4090_TCP_ADDR`]: IP,
});
// Kubernetes sets `<NAME>_SERVICE_HOST`, never `<NAME>_HOST`: GATEWAY_LISTEN_HOST is out of its reach.
const SHADOWABLE = /_(PORT|SERVICE_HOST|SERVICE_PORT)$/;
/** Every setting a Service's variables can shadow, from the parser's own list. */
const shadowed = CONFIG_FIELDS.filter((field) => SHADOWABLE.test(field.env));
const defaults = parseConfig({}, { cwd: '/srv' });

describe('settings a Kubernetes Service can shadow', () => {
  it('are found in the parser (the check is not vacuous)', () => {
    expect(shadowed.map((field) => field.env)).toContain('METRICS_PORT');
  });

  it.each(shadowed.map((field) => [field.env, field.key] as const))(
    '%s set by a Service: ignored with a warning naming it, the default applies',
    (env, key) => {
      const prefix = env.replace(SHADOWABLE, '');
      const warnings: ConfigWarning[] = [];
      const config = parseConfig(serviceLinks(prefix), { cwd: '/srv', onWarning: (w) => warnings.push(w) });
      expect(settingOf(config, key)).toEqual(settingOf(defaults, key));
      expect(warnings.map((w) => w.setting)).toContain(env);
      expect(warnings.find((w) => w.setting === env)?.message).toMatch(/Kubernetes .* enableServiceLinks: false/);
    },
  );

  it.each(CONFIG_FIELDS.map((field) => [field.env]))(
    'a Service named like %s (its variables as the prefix) is never taken for a typo or a setting',
    (env) => {
      expect(() => parseConfig(serviceLinks(env), { cwd: '/srv' })).not.toThrow();
    },
  );

  it('a real value for such a setting still applies', () => {
    expect(parseConfig({ METRICS_ENABLED: 'true', METRICS_PORT: '9464' }, { cwd: '/srv' }).metrics.port).toBe(9464);
    expect(() => parseConfig({ METRICS_PORT: 'eighty' }, { cwd: '/srv' })).toThrow(/METRICS_PORT/);
  });

  it('the gateway starts beside a Service named metrics, and says why METRICS_PORT is ignored', async () => {
    const gateway = await startGateway('fastify', {
      ...serviceLinks('METRICS'),
      SUBGRAPH_USERS_URL: await closedPortUrl(),
      SUBGRAPH_PRODUCTS_URL: await closedPortUrl(),
      SUBGRAPH_REVIEWS_URL: await closedPortUrl(),
    });
    try {
      expect((await postGraphQL(gateway.url, { query: '{ __typename }' })).status).toBe(200);
      expect(gateway.logLines().find((line) => line.setting === 'METRICS_PORT')).toMatchObject({ level: 40 });
    } finally {
      expect(await gateway.stop()).toBe(0);
    }
  });
});
