/** Our gateway process (`node server/dist/main.js`) on each of its four mounts. */
export const GATEWAY_MOUNTS = ['nest-fastify', 'nest-express', 'fastify', 'express'] as const;
export const ROUTER = 'apollo-router';
/** The seed's "Node gateway": startStandaloneServer + @apollo/gateway's default fetcher. */
export const STANDALONE = 'standalone';
/** The same server with our undici data source in place of the default fetcher: nothing else differs. */
export const STANDALONE_UNDICI = 'standalone-undici';
export const BUILT_IN_TARGETS: readonly string[] = [...GATEWAY_MOUNTS, STANDALONE, STANDALONE_UNDICI, ROUTER];

export type TargetKind = 'mount' | 'standalone' | 'router' | 'external';

export interface TargetSpec {
  readonly name: string;
  readonly kind: TargetKind;
  /** External targets only: the GraphQL endpoint, already running. */
  readonly url?: string;
}

/** `--targets` names plus `--external name=url` entries, in order; throws on unknown names. */
export function resolveTargets(names: readonly string[], externals: readonly TargetSpec[]): TargetSpec[] {
  const unknown = names.filter((name) => !BUILT_IN_TARGETS.includes(name));
  if (unknown.length > 0) {
    throw new Error(
      `unknown target ${unknown.join(', ')} (known: ${BUILT_IN_TARGETS.join(', ')}; or --external name=url)`,
    );
  }
  const builtIn = [...new Set(names)].map((name): TargetSpec => ({ name, kind: kindOf(name) }));
  return [...builtIn, ...externals];
}

/** Parses one `--external name=url`. */
export function parseExternal(value: string): TargetSpec {
  const at = value.indexOf('=');
  const name = value.slice(0, at).trim();
  const url = value.slice(at + 1).trim();
  if (at <= 0 || !/^https?:\/\//.test(url))
    throw new Error(`--external expects name=http://host:port/path, got "${value}"`);
  if (BUILT_IN_TARGETS.includes(name)) throw new Error(`--external name "${name}" is a built-in target; pick another`);
  return { name, kind: 'external', url };
}

function kindOf(name: string): TargetKind {
  if (name === ROUTER) return 'router';
  if (name === STANDALONE || name === STANDALONE_UNDICI) return 'standalone';
  return 'mount';
}
