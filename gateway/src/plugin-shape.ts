import type { GatewayPlugin } from './contract/index.js';

/** Every hook of the contract (contract/plugin.ts): when present, each must be a function. */
const HOOKS = [
  'authenticate',
  'admit',
  'onSupergraph',
  'aroundExecute',
  'onSubgraphRequest',
  'aroundSubgraphFetch',
  'onSubgraphResponse',
  'onSubgraphAttempt',
  'onEvent',
  'aroundRequest',
  'onResponse',
  'isReady',
  'close',
] as const satisfies readonly (keyof GatewayPlugin)[];
/** Apollo Server's plugin hooks (its ApolloServerPlugin), for `apollo`. */
const APOLLO_HOOKS = [
  'serverWillStart',
  'requestDidStart',
  'unexpectedErrorProcessingRequest',
  'contextCreationDidFail',
  'invalidRequestWasReceived',
  'startupDidFail',
] as const;
/** Members that are lists, not hooks. */
const LISTS = ['enforces', 'adminRoutes'] as const satisfies readonly (keyof GatewayPlugin)[];

const kind = (value: unknown) =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : typeof value === 'object'
        ? 'an object'
        : `a ${typeof value}`;

/**
 * What is wrong with a plugin's shape, one line per member, or nothing: a hook that is not a
 * function (`onSubgraphRequest: "yes"`), an `apollo` that is not an Apollo Server plugin object of
 * functions, a list that is not an array. Checked when a plugin module loads: such a plugin
 * was accepted and then made every request it met a 500.
 */
export function pluginShapeProblems(plugin: GatewayPlugin): string[] {
  const members = plugin as unknown as Record<string, unknown>;
  const problems: string[] = [];
  for (const hook of HOOKS) {
    const value = members[hook];
    if (value !== undefined && typeof value !== 'function')
      problems.push(`hook ${hook} is ${kind(value)}, not a function`);
  }
  for (const list of LISTS) {
    const value = members[list];
    if (value !== undefined && !Array.isArray(value)) problems.push(`${list} is ${kind(value)}, not an array`);
  }
  const apollo = members.apollo;
  if (apollo !== undefined) {
    if (typeof apollo !== 'object' || apollo === null || Array.isArray(apollo)) {
      problems.push(`apollo is ${kind(apollo)}, not an Apollo Server plugin object`);
    } else {
      for (const hook of APOLLO_HOOKS) {
        const value = (apollo as Record<string, unknown>)[hook];
        if (value !== undefined && typeof value !== 'function')
          problems.push(`hook apollo.${hook} is ${kind(value)}, not a function`);
      }
    }
  }
  return problems;
}
