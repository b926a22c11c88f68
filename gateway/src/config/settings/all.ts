import { AUTHORIZATION_FIELDS } from './fields/authorization.js';
import { CORS_FIELDS } from './fields/cors.js';
import { ENTITY_CACHE_FIELDS } from './fields/entity-cache.js';
import { HTTP_FIELDS } from './fields/http.js';
import { LIMIT_FIELDS } from './fields/limits.js';
import { OBSERVABILITY_FIELDS } from './fields/observability.js';
import { PLUGIN_FIELDS } from './fields/plugins.js';
import { PROCESS_FIELDS } from './fields/process.js';
import type { ConfigOf, FieldSpec, FlatConfigOf } from './fields/spec.js';
import { SUBGRAPH_FETCH_FIELDS } from './fields/subgraphs.js';
import { SUBSCRIPTION_FIELDS } from './fields/subscriptions.js';
import { SUPERGRAPH_FIELDS } from './fields/supergraph.js';

export type { ConfigOf, FieldSpec } from './fields/spec.js';
export { SUBGRAPH_ENV, SUBGRAPH_FIELDS } from './fields/subgraphs.js';

// Every setting: its environment variable, its key in GatewayConfig and the config file, how its
// value is read (a valibot schema, ADR 023), its default, what it means and the feature it tunes.
// parse.ts applies them; the reference in docs/configuration.md is generated from them.

/** Every setting, in the order the reference documents them. */
const FIELDS = [
  ...PROCESS_FIELDS,
  ...SUPERGRAPH_FIELDS,
  ...SUBGRAPH_FETCH_FIELDS,
  ...HTTP_FIELDS,
  ...CORS_FIELDS,
  ...SUBSCRIPTION_FIELDS,
  ...OBSERVABILITY_FIELDS,
  ...PLUGIN_FIELDS,
  ...ENTITY_CACHE_FIELDS,
  ...LIMIT_FIELDS,
  ...AUTHORIZATION_FIELDS,
] as const satisfies readonly FieldSpec[];
export const CONFIG_FIELDS: readonly FieldSpec<ScalarKey>[] = FIELDS;

/** Every setting's key and type, derived from its spec. */
export type ConfigValues = ConfigOf<typeof FIELDS>;
/** A setting's key, `group.name` for one in a group (as parse.ts and checks.ts see it before nesting). */
export type ScalarKey = keyof FlatConfigOf<typeof FIELDS>;
