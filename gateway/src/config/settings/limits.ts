import { resolve } from 'node:path';
import { CORE_LIMIT_VALUES } from '../../core-settings.js';
import type { ConfigIssue } from '../../errors.js';
import { DEMAND_CONTROL_VALUES } from '../../plugins/demand-control/index.js';
import { OPERATION_LIMIT_VALUES } from '../../plugins/operation-limits/index.js';
import { boolean, nonEmpty, oneOf, withDefault } from '../../settings/kinds.js';
import { TRUSTED_DOCUMENTS_MODES } from '../choices.js';

type TrustedDocumentsMode = (typeof TRUSTED_DOCUMENTS_MODES)[number];

import { type ConfigOf, defineFields, type Open } from './spec.js';

/** What every request is held to: trusted documents, operation limits, demand control, answer size, inbound deduplication; and Apollo telemetry. */
export const LIMIT_FIELDS = defineFields([
  {
    key: 'trustedDocuments.manifestPath',
    formerKey: 'trustedDocuments',
    env: 'TRUSTED_DOCUMENTS',
    parse: nonEmpty,
    meaning:
      'a persisted query manifest (Apollo or Relay/Codegen format), relative to the working directory; see [Trusted documents](security.md#trusted-documents). Reloaded every `SUPERGRAPH_POLL_INTERVAL_MS`',
  },
  // Its default depends on TRUSTED_DOCUMENTS: fillInTrustedDocuments fills it in.
  {
    key: 'trustedDocuments.mode',
    formerKey: 'trustedDocumentsMode',
    env: 'TRUSTED_DOCUMENTS_MODE',
    parse: oneOf(TRUSTED_DOCUMENTS_MODES),
    filledIn: true,
    meaning:
      '`off`, `allow-ids` (ids accepted, any document runs) or `enforce` (only manifest operations run); with `TRUSTED_DOCUMENTS` set the default is `enforce`',
    docDefault: '`off`',
  },
  {
    key: 'limits.maxDepth',
    formerKey: 'maxDepth',
    env: 'MAX_DEPTH',
    parse: OPERATION_LIMIT_VALUES.maxDepth,
    meaning:
      'deepest selection allowed (introspection fields not counted); see [Security](security.md#security-limits-on-every-request)',
  },
  {
    key: 'limits.maxAliases',
    formerKey: 'maxAliases',
    env: 'MAX_ALIASES',
    parse: OPERATION_LIMIT_VALUES.maxAliases,
    meaning: 'aliases allowed in one operation',
  },
  {
    key: 'limits.maxRootFields',
    formerKey: 'maxRootFields',
    env: 'MAX_ROOT_FIELDS',
    parse: OPERATION_LIMIT_VALUES.maxRootFields,
    meaning: 'root fields allowed in one operation',
  },
  {
    key: 'limits.maxTokens',
    formerKey: 'maxTokens',
    env: 'MAX_TOKENS',
    parse: CORE_LIMIT_VALUES.maxTokens,
    meaning: 'parser tokens allowed in one document (the parser stops at the limit)',
  },
  {
    key: 'limits.maxCharacters',
    formerKey: 'maxCharacters',
    env: 'MAX_CHARACTERS',
    parse: OPERATION_LIMIT_VALUES.maxCharacters,
    meaning: 'characters allowed in one document',
  },
  {
    key: 'limits.maxFields',
    formerKey: 'maxFields',
    env: 'MAX_FIELDS',
    parse: OPERATION_LIMIT_VALUES.maxFields,
    meaning:
      'field selections written in one document (a fragment counted once), checked before the document is validated: validation is quadratic in fields of one name',
  },
  {
    key: 'limits.maxCost',
    formerKey: 'maxCost',
    env: 'MAX_COST',
    parse: DEMAND_CONTROL_VALUES.maxCostSetting,
    meaning: 'largest estimated cost allowed (demand control); `0` turns demand control off',
  },
  {
    key: 'limits.defaultListSize',
    formerKey: 'defaultListSize',
    env: 'DEMAND_CONTROL_LIST_SIZE',
    formerEnv: ['DEFAULT_LIST_SIZE'],
    parse: DEMAND_CONTROL_VALUES.defaultListSize,
    meaning: 'list size assumed when neither a slicing argument nor `@listSize` gives one',
  },
  {
    key: 'limits.batchingMaxOperations',
    formerKey: 'batchingMaxOperations',
    env: 'BATCHING_MAX_OPERATIONS',
    parse: CORE_LIMIT_VALUES.batchingMaxOperations,
    meaning:
      "operations one HTTP request may batch (a JSON array, as Apollo Client's `BatchHttpLink` sends); `0` turns batching off (a batch gets 400). A larger batch gets 400 `BATCH_TOO_LARGE` before any of it runs; each operation is rate limited and checked on its own. See [Batching](operations.md#batching)",
  },
  {
    key: 'limits.maxResponseBytes',
    formerKey: 'maxResponseBytes',
    env: 'MAX_RESPONSE_BYTES',
    parse: CORE_LIMIT_VALUES.maxResponseBytes,
    meaning: 'largest answer the gateway builds; past it `RESPONSE_TOO_LARGE`',
    docDefault: '`10mb`',
  },
  {
    key: 'inboundDeduplicate',
    env: 'INBOUND_DEDUPLICATE',
    parse: withDefault(boolean, false),
    meaning:
      'identical queries in flight at once share one execution (never mutations); every caller is still authenticated, rate limited and checked. See [Inbound request deduplication](operations.md#inbound-request-deduplication)',
  },
  // Off: @apollo/gateway reports usage to Apollo only when an operator asks for it.
  {
    key: 'apolloTelemetry',
    env: 'APOLLO_TELEMETRY',
    parse: withDefault(boolean, false),
    meaning:
      '`true` lets `@apollo/gateway` send its usage metrics to Apollo (an OpenTelemetry exporter, whose resource detection probes cloud metadata addresses); off, the gateway connects only to what you configure. See [Outbound connections](security.md#outbound-connections)',
  },
]);

/**
 * The `trustedDocuments` group's rule (ADR 052). A manifest without a mode is enforced (it is
 * given to lock the graph down). A mode that needs a manifest without one would silently run
 * every operation, so it is an error. The path is resolved like SUPERGRAPH_PATH.
 */
export function fillInTrustedDocuments(
  { trustedDocuments }: Open<ConfigOf<typeof LIMIT_FIELDS>>,
  cwd: string,
  issues: ConfigIssue[],
): void {
  // Not filled in yet: unset, the mode is undefined here.
  const mode = trustedDocuments.mode as TrustedDocumentsMode | undefined;
  if (trustedDocuments.manifestPath === undefined) {
    if (mode !== undefined && mode !== 'off') {
      issues.push({ field: 'TRUSTED_DOCUMENTS_MODE', message: `${mode} needs a manifest: set TRUSTED_DOCUMENTS` });
    }
    trustedDocuments.mode = 'off';
    return;
  }
  trustedDocuments.manifestPath = resolve(cwd, trustedDocuments.manifestPath);
  trustedDocuments.mode = mode ?? 'enforce';
}
