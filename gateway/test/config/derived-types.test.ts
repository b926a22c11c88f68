// The config's type is derived from the field specs (fields/*.ts): these checks are compiled by
// `pnpm typecheck` (tsconfig.test.json), so a spec whose parser or default drifts from what its
// readers expect fails the build, not a request.
import { describe, expectTypeOf, it } from 'vitest';
import type { ConfigValues } from '../../src/config/fields.js';
import { parseConfig } from '../../src/config/parse.js';
import type { GatewayConfig } from '../../src/config/types.js';
import type { CoreSettings } from '../../src/core-settings.js';
import type { LoggerSettings } from '../../src/logger.js';
import type { TracingConfig } from '../../src/plugins/tracing/options.js';

describe('the config type derived from the specs', () => {
  const config = parseConfig({});

  it('types each setting by its parser, required when it has a default', () => {
    expectTypeOf(config.port).toEqualTypeOf<number>();
    expectTypeOf(config.env).toEqualTypeOf<'production' | 'development'>();
    expectTypeOf(config.corsOrigins).toEqualTypeOf<readonly string[]>();
    expectTypeOf(config.otelPropagators).toEqualTypeOf<
      readonly ('tracecontext' | 'baggage' | 'b3' | 'b3multi' | 'none')[]
    >();
  });

  it('leaves a setting without a default optional', () => {
    expectTypeOf(config.supergraphUrl).toEqualTypeOf<string | undefined>();
    expectTypeOf<ConfigValues>().toHaveProperty('redisUrl');
    expectTypeOf<Pick<ConfigValues, 'supergraphUrl'>>().toEqualTypeOf<{ readonly supergraphUrl?: string }>();
  });

  it('makes a value a check always fills in required (trustedDocumentsMode)', () => {
    expectTypeOf(config.trustedDocumentsMode).toEqualTypeOf<'off' | 'allow-ids' | 'enforce'>();
  });

  it('has no key that no spec declares', () => {
    // @ts-expect-error: no field spec declares it
    config.notASetting;
  });

  it('gives the core, tracing and the logger what they read', () => {
    expectTypeOf<GatewayConfig>().toMatchTypeOf<CoreSettings & TracingConfig & LoggerSettings>();
  });
});
