export { CONFIG_FIELDS, CONFIG_FILE_ENV, type ParseConfigOptions, parseConfig } from './config/parse.js';
export type { AdapterName, GatewayConfig, GatewayEnv, LogLevel, Runtime, SubgraphOverride } from './config/types.js';
export type { GatewayContext } from './context.js';
export { type CreateGatewayOptions, createGateway, type Gateway } from './create-gateway.js';
export {
  CLIENT_ERRORS,
  ClientErrorCode,
  type ClientErrorSpec,
  isClientSafe,
  STARTUP_ERRORS,
  type StartupErrorCode,
} from './error-registry.js';
export { type ConfigIssue, GatewayConfigError, GatewayError, GatewayErrorCode, PluginOptionsError } from './errors.js';
export { createFormatError, MASKED_MESSAGE } from './format-error.js';
export { createLogger, type Logger } from './logger.js';
export { type ApiKeyAuthOptions, apiKeyAuth } from './plugins/api-key-auth.js';
export {
  CLIENT_NAME_HEADER,
  CLIENT_VERSION_HEADER,
  type ClientAwarenessOptions,
  clientAwareness,
} from './plugins/client-awareness.js';
export {
  type HeaderRulesOptions,
  headerRules,
  type RequestHeaderRule,
  type ResponseHeaderRule,
} from './plugins/header-rules.js';
export { httpError } from './plugins/http-error.js';
export { type JwtAlgorithm, type JwtAuthOptions, jwtAuth } from './plugins/jwt-auth.js';
export { DEFAULT_OPERATION_LIMITS, type OperationLimitsOptions, operationLimits } from './plugins/operation-limits.js';
export {
  MemoryStore,
  type MemoryStoreOptions,
  type RateLimitFailureMode,
  type RateLimitHit,
  type RateLimitKey,
  type RateLimitOptions,
  type RateLimitStore,
  RedisStore,
  type RedisStoreOptions,
  rateLimit,
} from './plugins/rate-limit/index.js';
export { type ResponseHeader, type ResponseHeadersOptions, responseHeaders } from './plugins/response-headers.js';
export type { GatewayPlugin, Identity, SubgraphRequest, SubgraphResponse } from './plugins/types.js';
export { type RunningGateway, serveGateway } from './serve.js';
export { installShutdown } from './shutdown.js';
export { SubgraphDataSource, type SubgraphDataSourceOptions } from './subgraph-data-source.js';
