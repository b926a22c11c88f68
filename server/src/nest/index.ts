import 'reflect-metadata';

export { listenNest, type NestServer } from './bootstrap.js';
export { GatewayModule, type GatewayModuleAsyncOptions, type GatewayModuleOptions } from './gateway.module.js';
export { GATEWAY, GATEWAY_CONFIG } from './tokens.js';
