// Authorization directives (@authenticated, @requiresScopes, @policy), enforced as Apollo
// Router does: before planning, the operation loses every field the request may not see; the
// rest is planned and run; the answer has null (propagated by the nullability rules) and one
// UNAUTHORIZED_FIELD_OR_TYPE error per removed field. Or, in `reject` mode, the whole request
// is refused before any subgraph is asked.
import type { DocumentNode, FieldNode, OperationDefinitionNode } from 'graphql';
import type { GatewayContext, GatewayPlugin, ResolvedRequest } from '../../contract/index.js';
import {
  asOptionsObject,
  ClientErrorCode,
  checkKnownKeys,
  httpError,
  type Logger,
  mapDeferredParts,
  mapStreamEvents,
  OptionIssues,
  optionalValue,
} from '../../contract/kit.js';
import {
  deniedFields,
  guardsOf,
  hasAmbiguousKey,
  NO_GUARDS,
  type OperationGuards,
  type PatchNode,
  patchTree,
  withoutDenied,
} from './operation.js';
import { AUTHORIZATION_VALUES, type AuthorizationMode } from './options.js';
import { patchAnswer, patchEntry, UNAUTHORIZED_MESSAGE } from './response.js';
import { isAuthenticated, type PolicyDecider, type Rights, scopesOf } from './rights.js';
import { type AuthorizationRules, ENFORCED_SPECS, NO_RULES, readAuthorizationRules } from './rules.js';

export { AUTHORIZATION_VALUES, type AuthorizationMode } from './options.js';

/** `data` with the denied fields null and their errors (nothing to patch in an answer without data). */
function patchedResult(data: unknown, tree: ReadonlyMap<string, PatchNode>) {
  return data && typeof data === 'object'
    ? patchAnswer(data as Record<string, unknown>, tree)
    : { data: data as null | undefined, errors: [] };
}

export { type ClaimPolicy, claimPolicies, type PolicyDecider } from './rights.js';

const PLUGIN = 'authorization';

export interface AuthorizationOptions {
  /** `filter` (default): answer what the request may see; `reject`: refuse the whole request. */
  mode?: AuthorizationMode;
  /** The JWT claim holding the scopes: a space-separated string or a list. Default: `scope`. */
  scopeClaim?: string;
  /** Decides `@policy`; without one, every policy is refused. */
  policies?: PolicyDecider;
  /** Where a throwing policy decider is reported. */
  logger?: Logger;
}

/** The operation as this request may run it: cached per document, operation and denied set. */
interface Variant {
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode;
  readonly tree: ReadonlyMap<string, PatchNode>;
  /** Part of the plan cache key: requests with other rights never share a plan. */
  readonly key: string;
  /** A response key names a denied field and another one: the answer could not tell them apart. */
  readonly ambiguous: boolean;
}

/** Variants kept per operation: each distinct set of denied fields is one. */
const MAX_VARIANTS = 32;

export function authorization(options: AuthorizationOptions = {}): GatewayPlugin {
  const issues = new OptionIssues();
  const raw = asOptionsObject(PLUGIN, options);
  checkKnownKeys(issues, raw, ['mode', 'scopeClaim', 'policies', 'logger']);
  const mode = optionalValue(issues, raw, 'mode', AUTHORIZATION_VALUES.mode);
  const scopeClaim = optionalValue(issues, raw, 'scopeClaim', AUTHORIZATION_VALUES.scopeClaim);
  if (raw.policies !== undefined && typeof raw.policies !== 'function') issues.add('policies', 'must be a function');
  issues.throwIfAny(PLUGIN);
  const { policies: decide, logger } = options;

  let rules: AuthorizationRules = NO_RULES;
  let guardsByDocument = new WeakMap<DocumentNode, Map<string, OperationGuards>>();
  let variantsByDocument = new WeakMap<DocumentNode, Map<string, Variant>>();
  /** Set in didResolveOperation for a request that may not see everything it asked for. */
  const variants = new WeakMap<GatewayContext, Variant>();

  const guardsFor = (request: ResolvedRequest): OperationGuards => {
    const { document, operation, schema } = request;
    const name = operation?.name?.value ?? '';
    let byName = guardsByDocument.get(document);
    if (!byName) {
      byName = new Map<string, OperationGuards>();
      guardsByDocument.set(document, byName);
    }
    const known = byName.get(name);
    if (known || !operation) return known ?? NO_GUARDS;
    const guards = guardsOf(schema, rules, document, operation);
    byName.set(name, guards);
    return guards;
  };

  const rightsOf = async (context: GatewayContext, needed: ReadonlySet<string>): Promise<Rights> => {
    let policies = new Set<string>();
    if (needed.size > 0 && decide) {
      try {
        policies = new Set([...(await decide(context, needed))].filter((name) => needed.has(name)));
      } catch (error) {
        logger?.error({ err: error, plugin: PLUGIN }, 'the policy decider threw: every policy refused');
      }
    }
    return { authenticated: isAuthenticated(context), scopes: scopesOf(context, scopeClaim), policies };
  };

  const variantFor = (request: ResolvedRequest, denied: readonly FieldNode[], indices: string): Variant => {
    const { document, operation, schema } = request;
    let byKey = variantsByDocument.get(document);
    if (!byKey) {
      byKey = new Map<string, Variant>();
      variantsByDocument.set(document, byKey);
    }
    const key = `${operation?.name?.value ?? ''}:${indices}`;
    const known = byKey.get(key);
    if (known) return known;
    const deniedSet = new Set(denied);
    const filtered = withoutDenied(document, deniedSet);
    const name = operation?.name?.value;
    const filteredOperation = filtered.definitions.find(
      (definition): definition is OperationDefinitionNode =>
        definition.kind === 'OperationDefinition' && definition.name?.value === name,
    ) as OperationDefinitionNode;
    const tree = patchTree(schema, document, operation as OperationDefinitionNode, deniedSet);
    const variant: Variant = {
      document: filtered,
      operation: filteredOperation,
      tree,
      key: `authz:${indices}`,
      ambiguous: hasAmbiguousKey(tree),
    };
    if (byKey.size < MAX_VARIANTS) byKey.set(key, variant);
    return variant;
  };

  return {
    name: PLUGIN,
    enforces: ENFORCED_SPECS,
    onSupergraph({ sdl }) {
      rules = readAuthorizationRules(sdl);
      guardsByDocument = new WeakMap();
      variantsByDocument = new WeakMap();
    },
    apollo: {
      async requestDidStart() {
        if (rules === NO_RULES) return;
        return {
          async didResolveOperation(request) {
            const guards = guardsFor(request);
            if (guards.fields.length === 0) return;
            const rights = await rightsOf(request.contextValue, guards.policies);
            const { denied, indices } = deniedFields(guards, rights);
            if (denied.length === 0) return;
            if (mode === 'reject') {
              throw httpError(
                ClientErrorCode.UNAUTHORIZED_OPERATION,
                `${UNAUTHORIZED_MESSAGE}: the operation selects ${denied.length} field(s) this request may not see`,
              );
            }
            const variant = variantFor(request, denied, indices);
            if (variant.ambiguous) {
              throw httpError(
                ClientErrorCode.UNAUTHORIZED_OPERATION,
                `${UNAUTHORIZED_MESSAGE}: a response key names both a field this request may not see and another field`,
              );
            }
            variants.set(request.contextValue, variant);
          },
        };
      },
    },
    async aroundExecute(request, execute) {
      const variant = variants.get(request.context as GatewayContext);
      if (!variant) return execute();
      const result = await execute({
        ...request,
        document: variant.document,
        operation: variant.operation,
        queryHash: `${request.queryHash}:${variant.key}`,
      });
      // A subscription's events arrive later, each patched as an answer is.
      mapStreamEvents(request.context as GatewayContext, (event) => {
        const { data, errors } = patchedResult(event.data, variant.tree);
        const all = [...errors.map((error) => error.toJSON()), ...(event.errors ?? [])];
        return { ...event, data, ...(all.length > 0 && { errors: all }) };
      });
      // So are an operation's deferred parts, each at its path.
      mapDeferredParts(request.context as GatewayContext, (part) =>
        part.incremental
          ? { ...part, incremental: part.incremental.map((entry) => patchEntry(entry, variant.tree)) }
          : part,
      );
      const patched = patchedResult(result.data, variant.tree);
      const errors = [...patched.errors, ...(result.errors ?? [])];
      return { ...result, data: patched.data, ...(errors.length > 0 && { errors }) };
    },
  };
}
