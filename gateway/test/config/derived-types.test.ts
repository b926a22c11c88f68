// The config's type is derived from the field specs (config/settings/*.ts): these checks are compiled by
// `pnpm typecheck` (tsconfig.test.json), so a spec whose parser or default drifts from what its
// readers expect fails the build, not a request.
import { describe, expectTypeOf, it } from 'vitest';
import { parseConfig } from '../../src/config/parse.js';
import type { ConfigValues } from '../../src/config/settings/all.js';
import type { GatewayConfig } from '../../src/config/types.js';
import type { CoreSettings } from '../../src/core-settings.js';
import type { LoggerSettings } from '../../src/logger.js';
import type { ApiKeyAuthOptions } from '../../src/plugins/api-key/index.js';
import type { AuthorizationOptions } from '../../src/plugins/authorization/index.js';
import type { JwtAlgorithm, JwtAuthOptions } from '../../src/plugins/jwt/options.js';
import type { RateLimitOptions } from '../../src/plugins/rate-limit/options.js';
import type { TracingConfig } from '../../src/plugins/tracing/settings.js';

describe('the config type derived from the specs', () => {
  const config = parseConfig({});

  it('types each setting by its parser, required when it has a default', () => {
    expectTypeOf(config.port).toEqualTypeOf<number>();
    expectTypeOf(config.env).toEqualTypeOf<'production' | 'development'>();
    expectTypeOf(config.cors.origins).toEqualTypeOf<readonly string[]>();
    expectTypeOf(config.tracing.propagators).toEqualTypeOf<
      readonly ('tracecontext' | 'baggage' | 'b3' | 'b3multi' | 'none')[]
    >();
  });

  it('leaves a setting without a default optional', () => {
    expectTypeOf(config.supergraph.url).toEqualTypeOf<string | undefined>();
    expectTypeOf<ConfigValues>().toHaveProperty('rateLimit');
    expectTypeOf<Pick<ConfigValues['supergraph'], 'url'>>().toEqualTypeOf<{ readonly url?: string }>();
  });

  it('makes a value a check always fills in required (trustedDocuments.mode)', () => {
    expectTypeOf(config.trustedDocuments.mode).toEqualTypeOf<'off' | 'allow-ids' | 'enforce'>();
  });

  it('has no key that no spec declares', () => {
    // @ts-expect-error: no field spec declares it
    config.notASetting;
  });

  it("nests each plugin's settings as that plugin's options: the group is what its factory takes", () => {
    expectTypeOf(config.jwt.algorithms).toEqualTypeOf<readonly JwtAlgorithm[]>();
    expectTypeOf(config.jwt.issuer).toEqualTypeOf<string | undefined>();
    expectTypeOf(config.jwt).toMatchTypeOf<Omit<JwtAuthOptions, 'logger'>>();
    expectTypeOf(config.apiKey).toMatchTypeOf<ApiKeyAuthOptions>();
    expectTypeOf(config.rateLimit.max).toEqualTypeOf<number>();
    expectTypeOf(config.rateLimit.cost).toEqualTypeOf<'request' | 'estimated'>();
    expectTypeOf<Omit<GatewayConfig['rateLimit'], 'cost'>>().toMatchTypeOf<Omit<RateLimitOptions, 'logger'>>();
    expectTypeOf<Omit<GatewayConfig['authorization'], 'policies'>>().toMatchTypeOf<
      Omit<AuthorizationOptions, 'policies' | 'logger'>
    >();
    // @ts-expect-error: the flat name is gone from the type (the env and a former file key still read it)
    config.jwtIssuer;
  });

  it('gives the core, tracing and the logger what they read', () => {
    expectTypeOf<GatewayConfig>().toMatchTypeOf<CoreSettings & TracingConfig & LoggerSettings>();
  });
});
