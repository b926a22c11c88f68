// The supergraph the peers serve: ours without its authorization directives. Apollo Router
// refuses to start on them without a GraphOS licence, and the stock ApolloGateway of the
// standalone baselines refuses any security feature it cannot enforce. No benchmark query
// selects a field they guard, so every target answers the same operations the same way; only
// our gateway pays for checking them (its rows include that cost).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withoutSecurityFeatures } from '@fedgw/gateway';

let written: string | undefined;

/** A file with `supergraphPath`'s SDL minus its security features (written once per process). */
export function peerSupergraph(supergraphPath: string): string {
  if (written) return written;
  const path = join(mkdtempSync(join(tmpdir(), 'bench-peer-supergraph-')), 'supergraph.graphql');
  writeFileSync(path, withoutSecurityFeatures(readFileSync(supergraphPath, 'utf8')));
  written = path;
  return path;
}
