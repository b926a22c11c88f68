/** Injection token of the started gateway (a `Gateway`, or any `MountableGateway` given to `forGateway`). */
export const GATEWAY = Symbol('GATEWAY');
/** Injection token of the GatewayConfig (forRootAsync's factory result). */
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
/** Whether the module created the gateway and so must stop it on shutdown. */
export const GATEWAY_OWNED = Symbol('GATEWAY_OWNED');
/** The pino logger the module gives the gateway it creates. */
export const GATEWAY_LOGGER = Symbol('GATEWAY_LOGGER');
