// Authorization directives (@authenticated, @requiresScopes, @policy), enforced as Apollo
// Router does: before planning, the operation loses every field and fragment the request may
// not see; the rest is planned and run; the answer has null (propagated by the nullability
// rules) and one UNAUTHORIZED_FIELD_OR_TYPE error per removed selection, at its path in the
// operation. Or, in `reject` mode, the whole request is refused before any subgraph is asked.
// Apollo Router's options (dry run, where refusals are reported, their log, enforcement off)
// and a bounded policy decider: reporting.ts, policy-decision.ts.
import type { GatewayContext, GatewayPlugin, ResolvedRequest } from '../../plugin-sdk/index.js';
import {
  asOptionsObject,
  ClientErrorCode,
  checkKnownKeys,
  httpError,
  type Logger,
  OptionIssues,
  optionalValue,
} from '../../plugin-sdk/index.js';
import { executeDryRun, executeVariant } from './execute.js';
import { type AnswerPatch, deniedSelections } from './operation.js';
import { AUTHORIZATION_VALUES, type AuthorizationErrorLocation, type AuthorizationMode } from './options.js';
import { type RefusalDetails, refusalLog } from './reporting.js';
import { rightsResolver } from './request-rights.js';
import { UNAUTHORIZED_MESSAGE } from './response.js';
import type { PolicyDecider, Rights } from './rights.js';
import { type AuthorizationRules, ENFORCED_SPECS, NO_RULES, readAuthorizationRules } from './rules.js';
import { OperationVariants, type Variant } from './variants.js';

export {
  AUTHORIZATION_ERROR_LOCATIONS,
  AUTHORIZATION_VALUES,
  type AuthorizationErrorLocation,
  type AuthorizationMode,
} from './options.js';

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

export function authorization(options: AuthorizationOptions = {}): GatewayPlugin {
  const { mode, scopeClaim, policyTimeoutMs, directivesEnabled, dryRun, errorLocation, log } = checkOptions(options);
  const { policies: decide, logger } = options;
  const logRefusals = log ? refusalLog(logger) : undefined;
  const rightsOf = rightsResolver({ plugin: PLUGIN, decide, logger, policyTimeoutMs, scopeClaim, dryRun });

  let rules: AuthorizationRules = NO_RULES;
  const operations = new OperationVariants();
  /** Set in didResolveOperation for a request that may not see everything it asked for. */
  const variants = new WeakMap<GatewayContext, Variant>();
  /** AUTHORIZATION_DRY_RUN: the paths a request would have had refused (it runs unchanged). */
  const dryRuns = new WeakMap<GatewayContext, AnswerPatch>();
  const resolving: Omit<ResolveParts, 'rules'> = { operations, rightsOf, logRefusals, dryRun, mode, variants, dryRuns };

  return {
    name: PLUGIN,
    enforces: ENFORCED_SPECS,
    onSupergraph({ sdl }) {
      rules = enforcedRules(sdl, directivesEnabled, logger);
      operations.reset();
    },
    apollo: {
      async requestDidStart() {
        if (rules === NO_RULES) return;
        return {
          async didResolveOperation(request) {
            await resolveOperation(request, { ...resolving, rules });
          },
        };
      },
    },
    async aroundExecute(request, execute) {
      const variant = variants.get(request.context as GatewayContext);
      if (!variant) {
        const wouldRefuse = dryRun ? dryRuns.get(request.context as GatewayContext) : undefined;
        if (!wouldRefuse) return execute();
        return executeDryRun(request, execute, wouldRefuse, errorLocation);
      }
      return executeVariant(request, execute, variant, errorLocation);
    },
  };
}

/** The factory's options, checked (every bad one named at once), with their defaults. */
function checkOptions(options: AuthorizationOptions) {
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
  return { mode, scopeClaim, policyTimeoutMs, directivesEnabled, dryRun, errorLocation, log };
}

/** A new supergraph's rules; none when AUTHORIZATION_DIRECTIVES_ENABLED=false (warned). */
function enforcedRules(sdl: string, directivesEnabled: boolean, logger: Logger | undefined): AuthorizationRules {
  const rules = readAuthorizationRules(sdl);
  if (!directivesEnabled && rules !== NO_RULES) {
    logger?.warn(
      { plugin: PLUGIN, guardedFields: rules.fields.size, guardedTypes: rules.types.size },
      'AUTHORIZATION_DIRECTIVES_ENABLED=false: @authenticated, @requiresScopes and @policy are NOT enforced; every caller sees every field',
    );
    return NO_RULES;
  }
  return rules;
}

interface ResolveParts {
  readonly rules: AuthorizationRules;
  readonly operations: OperationVariants;
  readonly rightsOf: (context: GatewayContext, needed: ReadonlySet<string>) => Promise<Rights>;
  readonly logRefusals: ((context: GatewayContext, details: () => RefusalDetails) => void) | undefined;
  readonly dryRun: boolean;
  readonly mode: AuthorizationMode;
  readonly variants: WeakMap<GatewayContext, Variant>;
  readonly dryRuns: WeakMap<GatewayContext, AnswerPatch>;
}

/**
 * Once the operation is known: the selections this request may not see. None: it runs as
 * written. Some: logged; a dry run records them, `reject` refuses the request, `filter` sets
 * the variant that runs instead.
 */
async function resolveOperation(request: ResolvedRequest, parts: ResolveParts): Promise<void> {
  const { rules, operations, rightsOf, logRefusals, dryRun, mode, variants, dryRuns } = parts;
  const guards = operations.guardsFor(request, rules);
  if (guards.selections.length === 0) return;
  const rights = await rightsOf(request.contextValue, guards.policies);
  const { denied, indices } = deniedSelections(guards, rights);
  if (denied.length === 0) return;
  if (dryRun || logRefusals) {
    const patchOf = () => operations.variantFor(request, denied, indices).patch;
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
  const variant = operations.variantFor(request, denied, indices);
  if (variant.ambiguous) {
    throw httpError(
      ClientErrorCode.UNAUTHORIZED_OPERATION,
      `${UNAUTHORIZED_MESSAGE}: a response key names both a field this request may not see and another field`,
    );
  }
  variants.set(request.contextValue, variant);
}
