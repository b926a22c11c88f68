/**
 * Hive Gateway's configuration for the bench (`hive-gateway supergraph … -c dist/targets/hive-gateway-config.js`):
 * production mode, its own defaults otherwise. No token or target is given, so nothing reports
 * usage or traces to Hive; the supergraph is a local file.
 */
import { defineConfig } from '@graphql-hive/gateway';
import { HIVE_INBOUND_DEDUP_ENV, HIVE_RESPONSE_CACHE_ENV, HIVE_SUBSCRIPTIONS_WS_ENV } from './hive-gateway-env.js';

// Inlined rather than imported from subgraph-processes.ts: the harness's modules would add to
// Hive Gateway's memory, which the bench measures.
const SUBGRAPH_NAMES = ['users', 'products', 'reviews'] as const;
const urlEnv = (name: string) => `SUBGRAPH_${name.toUpperCase()}_URL`;

/** The subgraph that serves subscriptions (graphql-ws on its HTTP port and path). */
const SUBSCRIPTION_SUBGRAPH = 'reviews';

interface TransportEntry {
  location: string;
  options?: { subscriptions: { kind: 'ws' } };
}

/**
 * Like our SUBGRAPH_<NAME>_URL and the Router's override_subgraph_url: the bench's subgraph ports;
 * with HIVE_SUBSCRIPTIONS_WS_ENV, reviews' subscriptions over WebSocket at the same URL.
 */
function subgraphLocations(): Record<string, TransportEntry> {
  const entries: Record<string, TransportEntry> = {};
  for (const name of SUBGRAPH_NAMES) {
    const url = process.env[urlEnv(name)];
    if (!url) throw new Error(`hive-gateway-config: ${urlEnv(name)} is not set`);
    entries[name] = { location: url };
  }
  if (process.env[HIVE_SUBSCRIPTIONS_WS_ENV] === 'true') {
    entries[SUBSCRIPTION_SUBGRAPH] = {
      location: entries[SUBSCRIPTION_SUBGRAPH]?.location as string,
      options: { subscriptions: { kind: 'ws' } },
    };
  }
  return entries;
}

export const gatewayConfig = defineConfig({
  // Production: no GraphiQL or landing page on GET (ours and the Router's are off too).
  graphiql: false,
  landingPage: false,
  transportEntries: subgraphLocations(),
  inboundInflightRequestDeduplication: process.env[HIVE_INBOUND_DEDUP_ENV] === 'true',
  // Safe for private data: Hive ignores `Cache-Control: private`, so the session is the
  // Authorization header itself (unverified: a forged token only gets a session of its own);
  // without one, the answer is shared by every anonymous caller.
  ...(process.env[HIVE_RESPONSE_CACHE_ENV] === 'true'
    ? { responseCaching: { session: (request: Request) => request.headers.get('authorization') } }
    : {}),
});
