import type { StartupErrorCode } from './error-registry.js';

/**
 * Stable codes for errors raised while configuring or starting the gateway, by short
 * name; each is registered in error-registry.ts (errors a client sees are GraphQLErrors
 * with `extensions.code`, registered there too).
 */
export const GatewayErrorCode = {
  CONFIG_INVALID: 'ERR_GATEWAY_CONFIG_INVALID',
  CONFIG_FILE_UNREADABLE: 'ERR_GATEWAY_CONFIG_FILE_UNREADABLE',
  SUPERGRAPH_UNREADABLE: 'ERR_GATEWAY_SUPERGRAPH_UNREADABLE',
  SUPERGRAPH_INVALID: 'ERR_GATEWAY_SUPERGRAPH_INVALID',
  START_FAILED: 'ERR_GATEWAY_START_FAILED',
  PLUGIN_OPTIONS_INVALID: 'ERR_GATEWAY_PLUGIN_OPTIONS_INVALID',
  PLUGIN_MODULE_INVALID: 'ERR_GATEWAY_PLUGIN_MODULE_INVALID',
  PLUGIN_MODULE_TIMEOUT: 'ERR_GATEWAY_PLUGIN_MODULE_TIMEOUT',
} as const satisfies Record<string, StartupErrorCode>;
export type GatewayErrorCode = (typeof GatewayErrorCode)[keyof typeof GatewayErrorCode];

export class GatewayError extends Error {
  override name = 'GatewayError';
  constructor(
    readonly code: GatewayErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface ConfigIssue {
  /** The environment variable or config-file key that is wrong, e.g. `GATEWAY_LISTEN_PORT`. */
  field: string;
  message: string;
}

/** Every invalid field at once, so a deploy is fixed in one round. */
export class GatewayConfigError extends GatewayError {
  override name = 'GatewayConfigError';
  constructor(readonly issues: readonly ConfigIssue[]) {
    super(
      GatewayErrorCode.CONFIG_INVALID,
      `Invalid gateway configuration (${issues.length} ${issues.length === 1 ? 'problem' : 'problems'}):\n` +
        issues.map((issue) => `  - ${issue.field}: ${issue.message}`).join('\n'),
    );
  }
}

/** Thrown by a plugin factory: names the plugin and every bad option. */
export class PluginOptionsError extends GatewayError {
  override name = 'PluginOptionsError';
  constructor(
    readonly plugin: string,
    readonly issues: readonly ConfigIssue[],
  ) {
    super(
      GatewayErrorCode.PLUGIN_OPTIONS_INVALID,
      `Invalid options for the ${plugin} plugin:\n` +
        issues.map((issue) => `  - ${issue.field}: ${issue.message}`).join('\n'),
    );
  }
}
