import { SHADOW_VALUES } from '../../plugins/shadow/options.js';
import { defineFields } from './spec.js';

/** Shadow traffic (plugins/shadow/, docs/shadow-traffic.md): a sample of queries sent again to a candidate. */
export const SHADOW_FIELDS = defineFields([
  {
    key: 'shadow.url',
    env: 'SHADOW_URL',
    parse: SHADOW_VALUES.url,
    meaning:
      'a GraphQL endpoint (a candidate gateway, Apollo Router, `@apollo/gateway`) that sampled queries are sent to again once their client is answered, to compare answers; see [Shadow traffic](shadow-traffic.md)',
  },
  {
    key: 'shadow.supergraph',
    env: 'SHADOW_SUPERGRAPH',
    parse: SHADOW_VALUES.supergraph,
    meaning:
      'a candidate supergraph file, planned and run in this process against the same subgraphs, that sampled queries are run on again to compare answers',
  },
  {
    key: 'shadow.sample',
    env: 'SHADOW_SAMPLE',
    parse: SHADOW_VALUES.sample,
    meaning: 'the fraction of queries mirrored (0 to 1); mutations and subscriptions never are',
    feature: 'shadow',
  },
  {
    key: 'shadow.timeoutMs',
    env: 'SHADOW_TIMEOUT_MS',
    parse: SHADOW_VALUES.timeoutMs,
    meaning: 'a shadow answering later is given up (`shadow_error`)',
    feature: 'shadow',
  },
  {
    key: 'shadow.maxConcurrency',
    env: 'SHADOW_MAX_CONCURRENCY',
    parse: SHADOW_VALUES.maxConcurrency,
    meaning: 'shadow requests in flight at once; one more is dropped, never queued (`dropped`)',
    feature: 'shadow',
  },
  {
    key: 'shadow.maxResponseBytes',
    env: 'SHADOW_MAX_RESPONSE_BYTES',
    parse: SHADOW_VALUES.maxResponseBytes,
    meaning: "a shadow's answer past this stops being read (`shadow_error`)",
    feature: 'shadow',
  },
  {
    key: 'shadow.forwardHeaders',
    env: 'SHADOW_FORWARD_HEADERS',
    parse: SHADOW_VALUES.forwardHeaders,
    meaning:
      "the client's request headers sent on to `SHADOW_URL` (`authorization,x-tenant`); no other is, identity headers included",
    feature: 'shadow',
  },
  {
    key: 'shadow.logValues',
    env: 'SHADOW_LOG_VALUES',
    parse: SHADOW_VALUES.logValues,
    meaning: 'log the differing values, not only their paths (they may be personal data)',
    feature: 'shadow',
  },
  {
    key: 'shadow.unorderedPaths',
    env: 'SHADOW_UNORDERED_PATHS',
    parse: SHADOW_VALUES.unorderedPaths,
    meaning: 'response paths (`topProducts.reviews`) whose lists are compared in any order',
    feature: 'shadow',
  },
  {
    key: 'shadow.ignorePaths',
    env: 'SHADOW_IGNORE_PATHS',
    parse: SHADOW_VALUES.ignorePaths,
    meaning: 'response paths left out of the comparison (a timestamp, a random id)',
    feature: 'shadow',
  },
]);
