// The core: importing it loads no HTTP framework, no NestJS, and neither jose nor ioredis
// (the JWT and rate-limit plugins have their own entry points, `@fedgw/gateway/jwt` and
// `@fedgw/gateway/rate-limit`). Its public types are in `./contract/`.

export {
  type ClientAddressSettings,
  type ClientKeyOf,
  clientAddressResolver,
  clientKeyResolver,
} from './client-address/index.js';
export { type CreateGatewayOptions, createGateway } from './compose/create-gateway.js';
export { createGatewayFromConfig, pluginsFromConfig } from './compose/gateway-from-config.js';
export {
  CONFIG_FIELDS,
  CONFIG_FILE_ENV,
  type ConfigWarning,
  type ParseConfigOptions,
  parseConfig,
} from './config/parse.js';
export type { PluginModuleEntry } from './config/plugin-modules.js';
export type { AdapterName, GatewayConfig, GatewayEnv, LogLevel, Runtime, SubgraphOverride } from './config/types.js';
export type {
  CircuitState,
  FetchedSubgraphResult,
  GatewayContext,
  GatewayEvent,
  GatewayPlugin,
  Identity,
  MountableGateway,
  RequestScope,
  ResolvedRequest,
  SubgraphAttempt,
  SubgraphAttemptEnd,
  SubgraphHookAnswer,
  SubgraphRequest,
  SubgraphResponse,
  SubgraphResult,
  Supergraph,
} from './contract/index.js';
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
export { assembleGateway, type CoreOptions, type Gateway } from './gateway-core.js';
export { httpError } from './http-error.js';
export { createLogger, type Logger } from './logger.js';
export { pluginShapeProblems } from './plugin-shape.js';
export { type ApiKeyAuthOptions, apiKeyAuth } from './plugins/api-key/index.js';
export {
  type AuthorizationErrorLocation,
  type AuthorizationMode,
  type AuthorizationOptions,
  authorization,
  type ClaimPolicy,
  claimPolicies,
  type PolicyDecider,
} from './plugins/authorization/index.js';
export {
  CLIENT_NAME_HEADER,
  CLIENT_VERSION_HEADER,
  type ClientAwarenessOptions,
  clientAwareness,
} from './plugins/client-awareness/index.js';
export {
  type HeaderRulesOptions,
  headerRules,
  type RequestHeaderRule,
  type ResponseHeaderRule,
} from './plugins/header-rules/index.js';
export {
  DEFAULT_OPERATION_LIMITS,
  type OperationLimitsOptions,
  operationLimits,
} from './plugins/operation-limits/index.js';
export { type ResponseHeader, type ResponseHeadersOptions, responseHeaders } from './plugins/response-headers/index.js';
export {
  parseManifest,
  type TrustedDocumentsMode,
  type TrustedDocumentsOptions,
  trustedDocuments,
} from './plugins/trusted-documents/index.js';
export { SubgraphDataSource, type SubgraphDataSourceOptions } from './subgraph-fetch/data-source.js';
export { withoutSecurityFeatures } from './supergraph/security-features.js';
