import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closedPortUrl, postGraphQL, type RunningGateway, startGateway } from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_FIELDS, type ConfigWarning, parseConfig, settingOf } from '../../gateway/src/config/parse.js';

// Class: a setting that silently turns security off. `GATEWAY_PLUGINS=` (set, but empty: a
// template's blank, a CI variable never filled in) replaced the config file's jwt, api-key and
// rate-limit with an empty list, and requests without a credential got 200. An empty value now
// means "not set" for every setting, and leaving out a security plugin the file enables is said.

const API_KEY = 'ci:k3y-a1b2c3d4e5f6';
const JWT_SECRET = 'a-shared-secret-of-at-least-32-bytes!!';
/** The file of the issue: authentication and a rate limit, the way a deployment turns them on. */
function securedConfigFile(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'fedgw-security-')), 'gateway.json');
  writeFileSync(
    path,
    JSON.stringify({
      plugins: ['jwt', 'api-key', 'rate-limit'],
      jwt: { secret: JWT_SECRET, algorithms: ['HS256'], required: false },
      apiKey: { keys: [API_KEY] },
      rateLimit: { max: 1000 },
    }),
  );
  return path;
}

async function unreachableSubgraphs(): Promise<Record<string, string>> {
  return {
    SUBGRAPH_USERS_URL: await closedPortUrl(),
    SUBGRAPH_PRODUCTS_URL: await closedPortUrl(),
    SUBGRAPH_REVIEWS_URL: await closedPortUrl(),
  };
}

const warningsOf = (gateway: RunningGateway) => gateway.logLines().filter((line) => line.level === 40);

describe('GATEWAY_PLUGINS= (set but empty) beside a config file that enables jwt, api-key and rate-limit', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway('fastify', {
      ...(await unreachableSubgraphs()),
      GATEWAY_CONFIG_FILE: securedConfigFile(),
      GATEWAY_PLUGINS: '',
    });
  });
  afterAll(async () => {
    expect(await gateway?.stop()).toBe(0);
  });

  it('keeps the file plugins: a request without an API key is refused with 401', async () => {
    const answer = await postGraphQL(gateway.url, { query: '{ __typename }' });
    expect(answer.status).toBe(401);
    expect(answer.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const keyed = await postGraphQL(gateway.url, { query: '{ __typename }' }, { 'x-api-key': 'k3y-a1b2c3d4e5f6' });
    expect(keyed.status).toBe(200);
  });

  it('says at start that the empty value was read as not set', () => {
    expect(warningsOf(gateway)).toContainEqual(
      expect.objectContaining({ setting: 'GATEWAY_PLUGINS', msg: expect.stringMatching(/empty: read as not set/) }),
    );
  });
});

describe('GATEWAY_PLUGINS that leaves out a security plugin the config file enables', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway('fastify', {
      ...(await unreachableSubgraphs()),
      GATEWAY_CONFIG_FILE: securedConfigFile(),
      GATEWAY_PLUGINS: 'api-key,client-awareness',
    });
  });
  afterAll(async () => {
    expect(await gateway?.stop()).toBe(0);
  });

  it('logs one warning per plugin turned off, naming the plugin and the setting', () => {
    const turnedOff = warningsOf(gateway).filter((line) => line.setting === 'GATEWAY_PLUGINS');
    expect(turnedOff.map((line) => line.plugin).sort()).toEqual(['jwt', 'rate-limit']);
    for (const line of turnedOff) expect(line.msg).toMatch(new RegExp(`turns off the ${line.plugin} plugin`));
  });
});

describe('every setting read from an empty variable', () => {
  const defaults = parseConfig({}, { cwd: '/srv' });

  it.each(CONFIG_FIELDS.map((field) => [field.env, field.key] as const))(
    '%s="" and %s="  " are not set: the default applies, and a warning names the variable',
    (env, key) => {
      for (const empty of ['', '  ']) {
        const warnings: ConfigWarning[] = [];
        const config = parseConfig({ [env]: empty }, { cwd: '/srv', onWarning: (w) => warnings.push(w) });
        expect(settingOf(config, key)).toEqual(settingOf(defaults, key));
        expect(warnings).toContainEqual(expect.objectContaining({ setting: env }));
      }
    },
  );

  it('an empty variable leaves the config file value in force', () => {
    const file = securedConfigFile();
    const config = parseConfig({ GATEWAY_CONFIG_FILE: file, GATEWAY_PLUGINS: '', GATEWAY_API_KEYS: '' });
    expect(config.plugins).toEqual(['jwt', 'api-key', 'rate-limit']);
    expect(config.apiKey.keys).toEqual([{ consumer: 'ci', key: 'k3y-a1b2c3d4e5f6' }]);
  });

  it('an empty per-subgraph override (SUBGRAPH_<NAME>_*) is not set either', () => {
    const config = parseConfig({ SUBGRAPH_USERS_URL: '', SUBGRAPH_USERS_TIMEOUT_MS: ' ' }, { cwd: '/srv' });
    expect(config.subgraphs).toEqual({});
  });

  it('GATEWAY_PLUGINS=none still turns every plugin off, with a warning for each security plugin the file had', () => {
    const warnings: ConfigWarning[] = [];
    const config = parseConfig(
      { GATEWAY_CONFIG_FILE: securedConfigFile(), GATEWAY_PLUGINS: 'none' },
      { onWarning: (w) => warnings.push(w) },
    );
    expect(config.plugins).toEqual([]);
    expect(warnings.filter((w) => w.setting === 'GATEWAY_PLUGINS').map((w) => w.plugin)).toEqual([
      'jwt',
      'api-key',
      'rate-limit',
    ]);
  });

  // A list of separators only (`GATEWAY_PLUGINS=${EXTRA},${AUTH}` with both blank) is as empty as
  // `GATEWAY_PLUGINS=`, but it read as an empty list: every plugin the file enabled off, the same
  // as `none` though nobody wrote it. It now fails startup saying what to write instead.
  it.each([',', ' , ', ',,\t'])(
    'GATEWAY_PLUGINS=%j names no plugin: startup fails, pointing at none and at unset',
    (value) => {
      expect(() => parseConfig({ GATEWAY_CONFIG_FILE: securedConfigFile(), GATEWAY_PLUGINS: value })).toThrow(
        /GATEWAY_PLUGINS: names no plugin.*GATEWAY_PLUGINS=none/,
      );
    },
  );
});
