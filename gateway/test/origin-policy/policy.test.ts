import { describe, expect, it } from 'vitest';
import { createOriginPolicy } from '../../src/origin-policy/policy.js';
import type { OriginSettings } from '../../src/origin-policy/settings.js';

const OFF: OriginSettings = {
  origins: [],
  matchOrigins: [],
  allowCredentials: false,
  allowHeaders: [],
  exposeHeaders: [],
  maxAgeSeconds: 600,
};
const METHODS = ['GET', 'POST'];
const policy = (settings: Partial<OriginSettings>) => createOriginPolicy({ ...OFF, ...settings }, METHODS);
const ask = (origin: string) => ({ origin, 'access-control-request-method': 'POST' });

describe('origin policy', () => {
  it('off: no header on answers, preflights get none, and cookie-bearing streams only from the own origin', () => {
    const off = policy({});
    expect(off.enabled).toBe(false);
    expect(off.answerHeaders({ origin: 'https://a.example' })).toBeUndefined();
    expect(off.preflight(ask('https://a.example')).headers).not.toHaveProperty('access-control-allow-origin');
    expect(
      off.allowsCredentialedStream({ origin: 'https://a.example', cookie: 'x=1', host: 'gw.example' }, 'https'),
    ).toBe(false);
    expect(
      off.allowsCredentialedStream({ origin: 'https://gw.example', cookie: 'x=1', host: 'gw.example' }, 'https'),
    ).toBe(true);
    expect(off.allowsCredentialedStream({ origin: 'https://a.example', host: 'gw.example' }, 'https')).toBe(true);
  });

  it('* grants any origin without credentials and needs no Vary', () => {
    const any = policy({ origins: ['*'] });
    expect(any.answerHeaders({ origin: 'https://a.example' })).toEqual({ 'access-control-allow-origin': '*' });
    expect(any.preflight(ask('https://a.example')).headers['access-control-allow-origin']).toBe('*');
    // `*` lets pages read answers, not send the user's cookies: streams with a cookie stay refused.
    expect(any.allowsCredentialedStream({ origin: 'https://a.example', cookie: 'x=1', host: 'gw' }, 'https')).toBe(
      false,
    );
  });

  it('a listed origin is echoed with credentials; cookie-bearing streams need both the listing and credentials', () => {
    const listed = policy({ origins: ['https://app.example'], allowCredentials: true, maxAgeSeconds: 0 });
    expect(listed.answerHeaders({ origin: 'https://app.example' })).toEqual({
      'access-control-allow-origin': 'https://app.example',
      'access-control-allow-credentials': 'true',
      vary: 'Origin',
    });
    expect(listed.preflight(ask('https://app.example')).headers).not.toHaveProperty('access-control-max-age');
    expect(listed.answerHeaders({ origin: 'https://other.example' })).toEqual({ vary: 'Origin' });
    expect(listed.allowsCredentialedStream({ origin: 'https://app.example', cookie: 'x=1', host: 'gw' }, 'https')).toBe(
      true,
    );
    const withoutCredentials = policy({ origins: ['https://app.example'] });
    expect(
      withoutCredentials.allowsCredentialedStream(
        { origin: 'https://app.example', cookie: 'x=1', host: 'gw' },
        'https',
      ),
    ).toBe(false);
  });

  it('the own origin is scheme, host and port: an http page on the https gateway host is another origin', () => {
    const off = policy({});
    const stream = (origin: string, host: string, scheme: 'http' | 'https') =>
      off.allowsCredentialedStream({ origin, cookie: 'x=1', host }, scheme);
    expect(stream('https://gw.example', 'gw.example', 'https')).toBe(true);
    expect(stream('http://gw.example', 'gw.example', 'https')).toBe(false);
    expect(stream('https://gw.example', 'gw.example', 'http')).toBe(false);
    expect(stream('http://gw.example', 'gw.example', 'http')).toBe(true);
    // Default ports fold; another port is another origin.
    expect(stream('https://gw.example', 'gw.example:443', 'https')).toBe(true);
    expect(stream('https://gw.example:8443', 'gw.example', 'https')).toBe(false);
    expect(stream('http://gw.example:8080', 'GW.example:8080', 'http')).toBe(true);
    // A Host that is more than an authority matches nothing.
    expect(stream('https://gw.example', 'gw.example/path', 'https')).toBe(false);
    expect(stream('https://gw.example', 'user@gw.example', 'https')).toBe(false);
  });

  it('patterns match the whole origin', () => {
    const matched = policy({ matchOrigins: ['https://[a-z]+\\.example\\.com'] });
    expect(matched.answerHeaders({ origin: 'https://pr.example.com' })).toMatchObject({
      'access-control-allow-origin': 'https://pr.example.com',
    });
    expect(matched.answerHeaders({ origin: 'https://pr.example.com.evil.net' })).toEqual({ vary: 'Origin' });
    expect(matched.answerHeaders({ origin: 'http://x.https://pr.example.com' })).toEqual({ vary: 'Origin' });
  });

  it('an OPTIONS without Access-Control-Request-Method is no preflight: no grant', () => {
    const listed = policy({ origins: ['https://app.example'] });
    expect(listed.preflight({ origin: 'https://app.example' }).headers).toEqual({
      vary: 'Origin, Access-Control-Request-Headers',
    });
  });

  it('configured allowed headers replace mirroring', () => {
    const fixed = policy({ origins: ['https://app.example'], allowHeaders: ['content-type', 'authorization'] });
    const headers = fixed.preflight({
      ...ask('https://app.example'),
      'access-control-request-headers': 'x-evil',
    }).headers;
    expect(headers['access-control-allow-headers']).toBe('content-type, authorization');
    expect(headers.vary).toBe('Origin');
  });
});
