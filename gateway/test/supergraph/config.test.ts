import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse.js';
import { GatewayConfigError } from '../../src/errors.js';

const cwd = '/srv/gateway';

function issuesOf(env: Record<string, string>) {
  try {
    parseConfig(env, { cwd });
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayConfigError);
    return (error as GatewayConfigError).issues;
  }
  throw new Error('expected parseConfig to throw');
}

describe('supergraph source settings', () => {
  it('defaults to the file, polled every 10 s', () => {
    const config = parseConfig({}, { cwd });
    expect(config.supergraph).toMatchObject({
      path: '/srv/gateway/supergraph.graphql',
      pollIntervalMs: 10_000,
      urlTimeoutMs: 5_000,
      urlMaxBytes: 50 * 1024 ** 2,
    });
    expect(config.supergraph.url).toBeUndefined();
  });

  it('takes a URL source with its limits, and 0 turns polling off', () => {
    const config = parseConfig(
      {
        SUPERGRAPH_URL: 'https://artifacts.example/supergraph.graphql',
        SUPERGRAPH_POLL_INTERVAL_MS: '0',
        SUPERGRAPH_URL_TIMEOUT_MS: '2000',
        SUPERGRAPH_URL_MAX_BYTES: '5mb',
      },
      { cwd },
    );
    expect(config.supergraph).toMatchObject({
      url: 'https://artifacts.example/supergraph.graphql',
      pollIntervalMs: 0,
      urlTimeoutMs: 2000,
      urlMaxBytes: 5 * 1024 ** 2,
    });
  });

  it('refuses both sources at once, naming both', () => {
    expect(issuesOf({ SUPERGRAPH_PATH: 'a.graphql', SUPERGRAPH_URL: 'http://x.example/s' })).toEqual([
      {
        field: 'SUPERGRAPH_PATH | SUPERGRAPH_URL',
        message: 'set one supergraph source: SUPERGRAPH_URL replaces the file, it is not a fallback',
      },
    ]);
  });

  it('accepts URL limits without a URL, as settings of a feature that is off (a warning each)', () => {
    expect(() =>
      parseConfig({ SUPERGRAPH_URL_TIMEOUT_MS: '1000', SUPERGRAPH_URL_MAX_BYTES: '1mb' }, { cwd }),
    ).not.toThrow();
  });

  it('refuses a poll interval between 0 and 100 ms, and a bad URL without echoing it', () => {
    expect(
      issuesOf({
        SUPERGRAPH_POLL_INTERVAL_MS: '5',
        SUPERGRAPH_URL: 'ftp://host/s?sig=s3cr3t',
        SUPERGRAPH_URL_TIMEOUT_MS: '1000',
      }),
    ).toEqual([
      { field: 'SUPERGRAPH_URL', message: 'expected an http(s) URL (value not shown: it is a secret)' },
      { field: 'SUPERGRAPH_POLL_INTERVAL_MS', message: 'expected 0 (off) or at least 100 ms, got 5' },
    ]);
  });

  it('reads the same settings from the config file', () => {
    const file = JSON.stringify({ supergraph: { url: 'http://registry.local/s', path: 'x.graphql' } });
    let issues: readonly { field: string }[] = [];
    try {
      parseConfig({ GATEWAY_CONFIG_FILE: 'gw.json' }, { cwd, readFile: () => file });
    } catch (error) {
      issues = (error as GatewayConfigError).issues;
    }
    expect(issues.map((issue) => issue.field)).toEqual(['SUPERGRAPH_PATH | SUPERGRAPH_URL']);
  });
});
