import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse.js';
import { GatewayConfigError } from '../../src/errors.js';
import { SANDBOX_ORIGINS } from '../../src/origin-policy/settings.js';

const cwd = '/srv/gateway';

function issuesOf(env: Record<string, string>) {
  try {
    parseConfig(env, { cwd });
  } catch (error) {
    if (error instanceof GatewayConfigError) return error.issues;
    throw error;
  }
  return [];
}

describe('CORS settings', () => {
  it('default to no cross-origin access in production, the Sandbox in development', () => {
    expect(parseConfig({}, { cwd }).cors.origins).toEqual([]);
    expect(parseConfig({ GATEWAY_ENV: 'development' }, { cwd }).cors.origins).toEqual([...SANDBOX_ORIGINS]);
  });

  it('read origins, patterns separated by spaces (commas are common inside them), and the rest', () => {
    const config = parseConfig(
      {
        CORS_ORIGINS: 'https://app.example.com, http://localhost:5173',
        CORS_MATCH_ORIGINS: 'https://pr-[0-9]{1,4}\\.example\\.com  https://[a-z]+\\.example\\.org',
        CORS_ALLOW_CREDENTIALS: 'true',
        CORS_EXPOSE_HEADERS: 'x-request-id',
        CORS_MAX_AGE: '0',
      },
      { cwd },
    );
    expect(config.cors.origins).toEqual(['https://app.example.com', 'http://localhost:5173']);
    expect(config.cors.matchOrigins).toEqual([
      'https://pr-[0-9]{1,4}\\.example\\.com',
      'https://[a-z]+\\.example\\.org',
    ]);
    expect(config.cors.allowCredentials).toBe(true);
    expect(config.cors.maxAgeSeconds).toBe(0);
  });

  it('names every bad field at once: an origin with a path, a pattern that does not compile, a bad max age', () => {
    const issues = issuesOf({
      CORS_ORIGINS: 'https://app.example.com/',
      CORS_MATCH_ORIGINS: 'https://(unclosed',
      CORS_MAX_AGE: '-1',
    });
    expect(issues.map((issue) => issue.field).sort()).toEqual(['CORS_MATCH_ORIGINS', 'CORS_MAX_AGE', 'CORS_ORIGINS']);
    expect(issues.find((issue) => issue.field === 'CORS_ORIGINS')?.message).toMatch(
      /expected "https:\/\/app.example.com"/,
    );
  });

  it('refuses * with credentials (every site could act as the user)', () => {
    const issues = issuesOf({ CORS_ORIGINS: '*', CORS_ALLOW_CREDENTIALS: 'true' });
    expect(issues).toEqual([{ field: 'CORS_ORIGINS', message: expect.stringMatching(/cannot be combined/) }]);
    expect(issuesOf({ CORS_ORIGINS: '*' })).toEqual([]);
  });
});
