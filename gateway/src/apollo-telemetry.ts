import { ApolloGateway, type GatewayConfig as ApolloGatewayConfig } from '@apollo/gateway';

/**
 * A new ApolloGateway that sends nothing to Apollo unless `allowTelemetry` (APOLLO_TELEMETRY).
 * @apollo/gateway starts an OpenTelemetry metrics exporter to Apollo in its constructor (its
 * resource detection probes cloud metadata addresses) unless APOLLO_TELEMETRY_DISABLED is set
 * then, and it has no option for it: so the variable is set for the constructor call only,
 * whatever entry point built the gateway (server, Nest module, a bare mount, a reload's trial).
 */
export function newApolloGateway(config: ApolloGatewayConfig, allowTelemetry: boolean): ApolloGateway {
  if (allowTelemetry) return new ApolloGateway(config);
  const previous = process.env.APOLLO_TELEMETRY_DISABLED;
  process.env.APOLLO_TELEMETRY_DISABLED = 'true';
  try {
    return new ApolloGateway(config);
  } finally {
    if (previous === undefined) delete process.env.APOLLO_TELEMETRY_DISABLED;
    else process.env.APOLLO_TELEMETRY_DISABLED = previous;
  }
}
