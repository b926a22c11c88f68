import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { repoPath } from '../paths.js';
import { HIVE_GATEWAY_RUST, type TargetSpec } from './targets.js';

const require = createRequire(import.meta.url);

/** The installed `@graphql-hive/gateway` CLI script (its `bin`), run with our Node. */
export function hiveGatewayBin(): string {
  const manifest = require.resolve('@graphql-hive/gateway/package.json');
  const { bin } = require(manifest) as { bin: Record<string, string> };
  return join(dirname(manifest), bin['hive-gateway'] ?? 'dist/bin.js');
}

/** The installed version of `@graphql-hive/gateway`, for the environment and the README. */
export function hiveGatewayVersion(): string | null {
  try {
    return (require('@graphql-hive/gateway/package.json') as { version: string }).version;
  } catch {
    return null;
  }
}

/**
 * `hive-gateway supergraph <file>` on 127.0.0.1:<port>, configured by hive-gateway-config.js.
 * One process (`--fork 1`: in production it would fork one worker per CPU, whose CPU the bench
 * would not see), the Rust planner for `hive-gateway-rust`.
 */
export function hiveGatewayArgs(target: TargetSpec, supergraph: string, port: number): string[] {
  return [
    hiveGatewayBin(),
    'supergraph',
    supergraph,
    '--config-path',
    repoPath('bench', 'dist', 'targets', 'hive-gateway-config.js'),
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--fork',
    '1',
    ...(target.name === HIVE_GATEWAY_RUST ? ['--hive-router-runtime'] : []),
  ];
}
