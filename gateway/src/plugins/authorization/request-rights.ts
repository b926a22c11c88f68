// A request's rights: authenticated or not, its scopes, and the `@policy` names the decider
// granted (asked only for the policies the operation needs; fail closed, except in a dry run).
import type { GraphQLError } from 'graphql';
import type { GatewayContext } from '../../plugin-sdk/index.js';
import { ClientErrorCode, httpError, type Logger, LogThrottle } from '../../plugin-sdk/index.js';
import { decidePolicies, PolicyDecisionFailed } from './policy-decision.js';
import { isAuthenticated, type PolicyDecider, type Rights, scopesOf } from './rights.js';

const NO_POLICIES: ReadonlySet<string> = new Set();

export interface RightsParts {
  readonly plugin: string;
  readonly decide: PolicyDecider | undefined;
  readonly logger: Logger | undefined;
  readonly policyTimeoutMs: number;
  readonly scopeClaim: string;
  readonly dryRun: boolean;
}

/** `rightsOf(context, needed)`: the request's rights, the policies in `needed` decided. */
export function rightsResolver(
  parts: RightsParts,
): (context: GatewayContext, needed: ReadonlySet<string>) => Promise<Rights> {
  const { plugin, decide, logger, policyTimeoutMs, scopeClaim, dryRun } = parts;
  // A policy service that is down fails every request needing it: one line per interval, not one each.
  const deciderLog = new LogThrottle(1, 10_000);
  return async (context: GatewayContext, needed: ReadonlySet<string>): Promise<Rights> => {
    let policies: ReadonlySet<string> = NO_POLICIES;
    if (needed.size > 0 && decide) {
      try {
        policies = await decidePolicies(decide, context, needed, policyTimeoutMs);
      } catch (error) {
        const suppressed = deciderLog.take();
        if (suppressed !== undefined) {
          logger?.error(
            { err: error, requestId: context.requestId, plugin, ...(suppressed > 0 && { suppressed }) },
            dryRun ? 'no policy decision (dry run: reported as refused)' : 'no policy decision: request refused',
          );
        }
        // Fail closed; a dry run refuses nothing, so it reports those fields as refused instead.
        if (!dryRun) throw policyUnavailable(error);
      }
    }
    return { authenticated: isAuthenticated(context), scopes: scopesOf(context, scopeClaim), policies };
  };
}

function policyUnavailable(cause: unknown): GraphQLError {
  const why = cause instanceof PolicyDecisionFailed && cause.reason === 'timeout' ? 'in time' : 'at all';
  return httpError(
    ClientErrorCode.AUTHORIZATION_POLICY_UNAVAILABLE,
    `The policies this operation needs could not be decided ${why}; try again later`,
  );
}
