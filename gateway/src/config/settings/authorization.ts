import { AUTHORIZATION_VALUES, type ClaimPolicy } from '../../plugins/authorization/index.js';
import { custom, type Parsed, withDefault } from '../../settings/kinds.js';

import { defineFields } from './spec.js';

const NAME = /^[A-Za-z0-9_.:-]+$/;

/** `name:claim=value` entries, comma-separated (a JSON list of `{ policy, claim, value }` in the file). */
const claimPolicyList = custom<ClaimPolicy[]>('policy:claim=value entries separated by commas', (raw) => {
  if (Array.isArray(raw)) return { ok: true, value: raw as ClaimPolicy[] };
  if (typeof raw !== 'string') return { ok: false, message: 'expected policy:claim=value entries separated by commas' };
  const entries: ClaimPolicy[] = [];
  for (const part of raw.split(',').map((item) => item.trim())) {
    const match = /^([^:]+):([^=]+)=(.+)$/.exec(part);
    if (!match || !NAME.test(match[1] as string) || !NAME.test(match[2] as string)) {
      return { ok: false, message: `expected policy:claim=value, got ${JSON.stringify(part)}` } satisfies Parsed<never>;
    }
    entries.push({ policy: match[1] as string, claim: match[2] as string, value: match[3] as string });
  }
  return { ok: true, value: entries };
});

/** Authorization directives in the supergraph (@authenticated, @requiresScopes, @policy): enforced unless turned off. */
export const AUTHORIZATION_FIELDS = defineFields([
  {
    key: 'authorization.mode',
    formerKey: 'authorizationMode',
    env: 'AUTHORIZATION_MODE',
    parse: AUTHORIZATION_VALUES.mode,
    meaning:
      '`filter`: fields the request may not see are answered null with `UNAUTHORIZED_FIELD_OR_TYPE` (the rest runs); `reject`: such a request is refused whole, 403 `UNAUTHORIZED_OPERATION`. See [Authorization](authorization.md)',
  },
  {
    key: 'authorization.scopeClaim',
    formerKey: 'authorizationScopeClaim',
    env: 'AUTHORIZATION_SCOPE_CLAIM',
    parse: AUTHORIZATION_VALUES.scopeClaim,
    meaning: 'the JWT claim `@requiresScopes` reads: a space-separated string or a list of strings',
  },
  {
    key: 'authorization.policies',
    formerKey: 'authorizationPolicies',
    env: 'AUTHORIZATION_POLICIES',
    parse: withDefault(claimPolicyList, []),
    meaning:
      '`@policy` rules, `policy:claim=value` (`support:role=support`): granted when the verified JWT claim equals the value or, for a list claim, contains it. A policy decider given in code replaces them',
  },
  {
    key: 'authorization.policyTimeoutMs',
    formerKey: 'authorizationPolicyTimeoutMs',
    env: 'AUTHORIZATION_POLICY_TIMEOUT_MS',
    parse: AUTHORIZATION_VALUES.policyTimeoutMs,
    meaning:
      'how long a policy decider given in code (a policy service) may take; later, or when it throws, a request that needs a `@policy` is refused, 503 `AUTHORIZATION_POLICY_UNAVAILABLE` (fail closed)',
  },
  {
    key: 'authorization.directivesEnabled',
    formerKey: 'authorizationDirectivesEnabled',
    env: 'AUTHORIZATION_DIRECTIVES_ENABLED',
    parse: AUTHORIZATION_VALUES.directivesEnabled,
    meaning:
      "`false` enforces none of the supergraph's authorization directives: every caller sees every field (a warning at each supergraph that has them). Apollo Router's `authorization.directives.enabled`",
  },
  {
    key: 'authorization.dryRun',
    formerKey: 'authorizationDryRun',
    env: 'AUTHORIZATION_DRY_RUN',
    parse: AUTHORIZATION_VALUES.dryRun,
    meaning:
      "`true`: nothing is refused; the answer reports (per `AUTHORIZATION_ERRORS`) and the log names what would be. Apollo Router's `authorization.directives.dry_run`",
  },
  {
    key: 'authorization.errors',
    formerKey: 'authorizationErrors',
    env: 'AUTHORIZATION_ERRORS',
    parse: AUTHORIZATION_VALUES.errors,
    meaning:
      "where each refused field's `UNAUTHORIZED_FIELD_OR_TYPE` goes: the answer's `errors`, its `extensions.authorizationErrors`, or nowhere (`disabled`). Apollo Router's `authorization.directives.errors.response`",
  },
  {
    key: 'authorization.log',
    formerKey: 'authorizationLog',
    env: 'AUTHORIZATION_LOG',
    parse: AUTHORIZATION_VALUES.log,
    meaning:
      "one `info` line per request with refused fields (request id, operation name, paths; never a credential), at most 20 per 10 s. Apollo Router's `authorization.directives.errors.log`",
  },
]);
