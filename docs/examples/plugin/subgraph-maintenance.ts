// An example plugin (docs/plugins.md, "Writing a plugin"): take subgraphs out of service
// without a deployment of theirs. The gateway answers their requests itself, so the rest of
// each operation still runs: their fields are null, with one error per fetch, and no
// connection, retry or circuit-breaker count is spent on them. The supergraph hook checks the
// names against every supergraph the gateway is about to serve: a misspelled name refuses it
// (at start, or a reload) instead of silently doing nothing.
import type { GatewayPlugin, SubgraphResult } from '@fedgw/gateway/plugin-sdk';

export interface SubgraphMaintenanceOptions {
  /** Subgraph names as the supergraph writes them (`reviews`). */
  readonly subgraphs: readonly string[];
}

export interface SubgraphMaintenance extends GatewayPlugin {
  /** Subgraph requests answered in the subgraphs' place so far. */
  answered(): number;
}

export function subgraphMaintenance(options: SubgraphMaintenanceOptions): SubgraphMaintenance {
  const down = new Set(options.subgraphs.map((name) => name.toLowerCase()));
  // Built once per subgraph: the same answer serves every request (the gateway only reads it).
  const answers = new Map<string, SubgraphResult>(
    [...down].map((name) => [
      name,
      {
        data: null,
        // A code the gateway's error registry knows, so its message survives MASK_ERRORS.
        errors: [
          { message: `Subgraph "${name}" is under maintenance.`, extensions: { code: 'SUBREQUEST_HTTP_ERROR' } },
        ],
      },
    ]),
  );
  let answered = 0;
  return {
    name: 'subgraph-maintenance',
    onSupergraph({ subgraphs }) {
      const unknown = [...down].filter((name) => !subgraphs.includes(name));
      if (unknown.length > 0) throw new Error(`no subgraph "${unknown.join('", "')}" (it has ${subgraphs.join(', ')})`);
    },
    onSubgraphRequest: ({ subgraph }) => answers.get(subgraph.toLowerCase()),
    onSubgraphResponse({ answeredBy }) {
      if (answeredBy === 'subgraph-maintenance') answered++;
    },
    answered: () => answered,
  };
}
