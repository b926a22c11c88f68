import { AUTHORIZATION_FIELDS } from './authorization.js';
import { CORS_FIELDS } from './cors.js';
import { ENTITY_CACHE_FIELDS } from './entity-cache.js';
import { HTTP_FIELDS } from './http.js';
import { LIMIT_FIELDS } from './limits.js';
import { OBSERVABILITY_FIELDS } from './observability.js';
import { PLUGIN_FIELDS } from './plugins.js';
import { PROCESS_FIELDS } from './process.js';
import { SHADOW_FIELDS } from './shadow.js';
import { SHEDDING_FIELDS } from './shedding.js';
import type { ConfigOf, FieldSpec, FlatConfigOf } from './spec.js';
import { SUBGRAPH_FETCH_FIELDS } from './subgraphs.js';
import { SUBSCRIPTION_FIELDS } from './subscriptions.js';
import { SUPERGRAPH_FIELDS } from './supergraph.js';
import { UPLOAD_FIELDS } from './uploads.js';

export type { ConfigOf, FieldSpec } from './spec.js';
export { SUBGRAPH_ENV, SUBGRAPH_FIELDS } from './subgraphs.js';

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
  ...UPLOAD_FIELDS,
  ...OBSERVABILITY_FIELDS,
  ...PLUGIN_FIELDS,
  ...ENTITY_CACHE_FIELDS,
  ...LIMIT_FIELDS,
  ...SHEDDING_FIELDS,
  ...AUTHORIZATION_FIELDS,
  ...SHADOW_FIELDS,
] as const satisfies readonly FieldSpec[];
export const CONFIG_FIELDS: readonly FieldSpec<ScalarKey>[] = FIELDS;

/** Every setting's key and type, derived from its spec. */
export type ConfigValues = ConfigOf<typeof FIELDS>;
/** A setting's key, `group.name` for one in a group (as parse.ts reads it before nesting). */
export type ScalarKey = keyof FlatConfigOf<typeof FIELDS>;
