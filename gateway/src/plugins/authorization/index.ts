// Authorization directives (@authenticated, @requiresScopes, @policy), enforced as Apollo
// Router does: before planning, the operation loses every field and fragment the request may
// not see; the rest is planned and run; the answer has null (propagated by the nullability
// rules) and one UNAUTHORIZED_FIELD_OR_TYPE error per removed selection, at its path in the
// operation. Or, in `reject` mode, the whole request is refused before any subgraph is asked.
// Apollo Router's options (dry run, where refusals are reported, their log, enforcement off)
// and a bounded policy decider: reporting.ts, policy-decision.ts.
import type { DocumentNode, GraphQLError, OperationDefinitionNode } from 'graphql';
import type { GatewayContext, GatewayPlugin, ResolvedRequest } from '../../plugin-sdk/index.js';
import {
  asOptionsObject,
  ClientErrorCode,
  checkKnownKeys,
  httpError,
  type Logger,
  LogThrottle,
  mapDeferredParts,
  mapStreamEvents,
  OptionIssues,
  optionalValue,
} from '../../plugin-sdk/index.js';
import {
  type AnswerPatch,
  answerPatch,
  deniedSelections,
  type GuardedNode,
  guardsOf,
  hasAmbiguousKey,
  NO_GUARDS,
  type OperationGuards,
  withoutDenied,
} from './operation.js';
import { AUTHORIZATION_VALUES, type AuthorizationErrorLocation, type AuthorizationMode } from './options.js';
import { decidePolicies, PolicyDecisionFailed } from './policy-decision.js';
import { placeRefusals, refusalLog } from './reporting.js';
import { patchAnswer, patchEntry, refusalErrors, UNAUTHORIZED_MESSAGE } from './response.js';
import { isAuthenticated, type PolicyDecider, type Rights, scopesOf } from './rights.js';
import { type AuthorizationRules, ENFORCED_SPECS, NO_RULES, readAuthorizationRules } from './rules.js';

export {
  AUTHORIZATION_ERROR_LOCATIONS,
  AUTHORIZATION_VALUES,
  type AuthorizationErrorLocation,
  type AuthorizationMode,
} from './options.js';

/** `data` with the denied fields null and the refusals' errors (nothing to patch in an answer without data). */
function patchedResult(data: unknown, patch: AnswerPatch) {
  return data && typeof data === 'object'
    ? patchAnswer(data as Record<string, unknown>, patch)
    : { data: data as null | undefined, errors: [] };
}

export { type ClaimPolicy, claimPolicies, type PolicyDecider } from './rights.js';

const PLUGIN = 'authorization';

export interface AuthorizationOptions {
  /** `filter` (default): answer what the request may see; `reject`: refuse the whole request. */
  mode?: AuthorizationMode;
  /** The JWT claim holding the scopes: a space-separated string or a list. Default: `scope`. */
  scopeClaim?: string;
  /** Decides `@policy`, at once or as a Promise (a policy service); without one, every policy is refused. */
  policies?: PolicyDecider;
  /** How long `policies` may take before the request is refused, 503 (fail closed). Default: 1000 ms. */
  policyTimeoutMs?: number;
  /** Apollo Router's `directives.enabled`. `false` enforces nothing (warned at each supergraph). Default: true. */
  directivesEnabled?: boolean;
  /** Apollo Router's `directives.dry_run`: report and log what would be refused, refuse nothing. Default: false. */
  dryRun?: boolean;
  /** Where refused fields' errors go: `errors` (default), `extensions.authorizationErrors`, `disabled`. */
  errors?: AuthorizationErrorLocation;
  /** One throttled `info` line per request with refusals (Apollo Router's `errors.log`). Default: true. */
  log?: boolean;
  /** Where refusals, a failing policy decider and disabled directives are reported. */
  logger?: Logger;
}

/** The operation as this request may run it: cached per document, operation and denied set. */
interface Variant {
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode;
  readonly patch: AnswerPatch;
  /** Part of the plan cache key: requests with other rights never share a plan. */
  readonly key: string;
  /** A response key names a denied field and another one: the answer could not tell them apart. */
  readonly ambiguous: boolean;
}

/** Variants kept per operation: each distinct set of denied selections is one. */
const MAX_VARIANTS = 32;

const NO_POLICIES: ReadonlySet<string> = new Set();

function policyUnavailable(cause: unknown): GraphQLError {
  const why = cause instanceof PolicyDecisionFailed && cause.reason === 'timeout' ? 'in time' : 'at all';
  return httpError(
    ClientErrorCode.AUTHORIZATION_POLICY_UNAVAILABLE,
    `The policies this operation needs could not be decided ${why}; try again later`,
  );
}

/** A deferred entry patched, its refusals (those patchEntry added) placed as the answer's are. */
function placedEntry<E extends Parameters<typeof patchEntry>[0]>(
  entry: E,
  patch: AnswerPatch,
  location: AuthorizationErrorLocation,
): E {
  const patched = patchEntry(entry, patch);
  if (patched === entry || location === 'errors') return patched;
  const own = new Set(entry.errors ?? []);
  const refusals = (patched.errors ?? []).filter((error) => !own.has(error));
  const rest = { ...patched, errors: entry.errors } as E;
  if (!entry.errors) delete (rest as { errors?: unknown }).errors;
  return placeRefusals(rest as E & { extensions?: Record<string, unknown> }, refusals, location);
}

export function authorization(options: AuthorizationOptions = {}): GatewayPlugin {
  const issues = new OptionIssues();
  const raw = asOptionsObject(PLUGIN, options);
  checkKnownKeys(issues, raw, [
    'mode',
    'scopeClaim',
    'policies',
    'policyTimeoutMs',
    'directivesEnabled',
    'dryRun',
    'errors',
    'log',
    'logger',
  ]);
  const mode = optionalValue(issues, raw, 'mode', AUTHORIZATION_VALUES.mode);
  const scopeClaim = optionalValue(issues, raw, 'scopeClaim', AUTHORIZATION_VALUES.scopeClaim);
  const policyTimeoutMs = optionalValue(issues, raw, 'policyTimeoutMs', AUTHORIZATION_VALUES.policyTimeoutMs);
  const directivesEnabled = optionalValue(issues, raw, 'directivesEnabled', AUTHORIZATION_VALUES.directivesEnabled);
  const dryRun = optionalValue(issues, raw, 'dryRun', AUTHORIZATION_VALUES.dryRun);
  const errorLocation = optionalValue(issues, raw, 'errors', AUTHORIZATION_VALUES.errors);
  const log = optionalValue(issues, raw, 'log', AUTHORIZATION_VALUES.log);
  if (raw.policies !== undefined && typeof raw.policies !== 'function') issues.add('policies', 'must be a function');
  issues.throwIfAny(PLUGIN);
  const { policies: decide, logger } = options;
  const logRefusals = log ? refusalLog(logger) : undefined;
  // A policy service that is down fails every request needing it: one line per interval, not one each.
  const deciderLog = new LogThrottle(1, 10_000);

  let rules: AuthorizationRules = NO_RULES;
  let guardsByDocument = new WeakMap<DocumentNode, Map<string, OperationGuards>>();
  let variantsByDocument = new WeakMap<DocumentNode, Map<string, Variant>>();
  /** Set in didResolveOperation for a request that may not see everything it asked for. */
  const variants = new WeakMap<GatewayContext, Variant>();
  /** AUTHORIZATION_DRY_RUN: the paths a request would have had refused (it runs unchanged). */
  const dryRuns = new WeakMap<GatewayContext, AnswerPatch>();

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
    let policies: ReadonlySet<string> = NO_POLICIES;
    if (needed.size > 0 && decide) {
      try {
        policies = await decidePolicies(decide, context, needed, policyTimeoutMs);
      } catch (error) {
        const suppressed = deciderLog.take();
        if (suppressed !== undefined) {
          logger?.error(
            { err: error, requestId: context.requestId, plugin: PLUGIN, ...(suppressed > 0 && { suppressed }) },
            dryRun ? 'no policy decision (dry run: reported as refused)' : 'no policy decision: request refused',
          );
        }
        // Fail closed; a dry run refuses nothing, so it reports those fields as refused instead.
        if (!dryRun) throw policyUnavailable(error);
      }
    }
    return { authenticated: isAuthenticated(context), scopes: scopesOf(context, scopeClaim), policies };
  };

  const variantFor = (request: ResolvedRequest, denied: readonly GuardedNode[], indices: string): Variant => {
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
    const patch = answerPatch(schema, document, operation as OperationDefinitionNode, deniedSet);
    const variant: Variant = {
      document: filtered,
      operation: filteredOperation,
      patch,
      key: `authz:${indices}`,
      ambiguous: hasAmbiguousKey(patch.tree),
    };
    if (byKey.size < MAX_VARIANTS) byKey.set(key, variant);
    return variant;
  };

  return {
    name: PLUGIN,
    enforces: ENFORCED_SPECS,
    onSupergraph({ sdl }) {
      rules = readAuthorizationRules(sdl);
      if (!directivesEnabled && rules !== NO_RULES) {
        logger?.warn(
          { plugin: PLUGIN, guardedFields: rules.fields.size, guardedTypes: rules.types.size },
          'AUTHORIZATION_DIRECTIVES_ENABLED=false: @authenticated, @requiresScopes and @policy are NOT enforced; every caller sees every field',
        );
        rules = NO_RULES;
      }
      guardsByDocument = new WeakMap();
      variantsByDocument = new WeakMap();
    },
    apollo: {
      async requestDidStart() {
        if (rules === NO_RULES) return;
        return {
          async didResolveOperation(request) {
            const guards = guardsFor(request);
            if (guards.selections.length === 0) return;
            const rights = await rightsOf(request.contextValue, guards.policies);
            const { denied, indices } = deniedSelections(guards, rights);
            if (denied.length === 0) return;
            if (dryRun || logRefusals) {
              const patchOf = () => variantFor(request, denied, indices).patch;
              const wouldRefuse = dryRun ? patchOf() : undefined;
              // Details only for a line the throttle lets through.
              logRefusals?.(request.contextValue, () => ({
                operationName: request.operationName ?? null,
                paths: (wouldRefuse ?? patchOf()).paths,
                outcome: dryRun ? 'dry-run' : mode === 'reject' ? 'rejected' : 'filtered',
              }));
              if (wouldRefuse) {
                dryRuns.set(request.contextValue, wouldRefuse);
                return;
              }
            }
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
      if (!variant) {
        const wouldRefuse = dryRun ? dryRuns.get(request.context as GatewayContext) : undefined;
        if (!wouldRefuse) return execute();
        // A dry run: the operation runs as written; its answer (each event of a subscription) reports.
        const refusals = refusalErrors(wouldRefuse);
        const result = await execute();
        const formatted = refusals.map((error) => error.toJSON());
        mapStreamEvents(request.context as GatewayContext, (event) => placeRefusals(event, formatted, errorLocation));
        return placeRefusals(result, refusals, errorLocation);
      }
      // Nothing the operation selects is left: `data: null` (as Apollo Router answers), nothing run.
      if (variant.patch.nothingLeft && variant.operation.operation !== 'subscription') {
        const nothing: { data: null; errors?: GraphQLError[]; extensions?: Record<string, unknown> } = { data: null };
        return placeRefusals(nothing, refusalErrors(variant.patch), errorLocation);
      }
      const result = await execute({
        ...request,
        document: variant.document,
        operation: variant.operation,
        queryHash: `${request.queryHash}:${variant.key}`,
      });
      // A subscription's events arrive later, each patched as an answer is.
      mapStreamEvents(request.context as GatewayContext, (event) => {
        const { data, errors } = patchedResult(event.data, variant.patch);
        const formatted = errors.map((error) => error.toJSON());
        return placeRefusals({ ...event, data }, formatted, errorLocation);
      });
      // So are an operation's deferred parts, each at its path.
      mapDeferredParts(request.context as GatewayContext, (part) =>
        part.incremental
          ? { ...part, incremental: part.incremental.map((entry) => placedEntry(entry, variant.patch, errorLocation)) }
          : part,
      );
      const patched = patchedResult(result.data, variant.patch);
      return placeRefusals({ ...result, data: patched.data }, patched.errors, errorLocation);
    },
  };
}
