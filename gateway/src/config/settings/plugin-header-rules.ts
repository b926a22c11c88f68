import { HEADER_RULES_VALUES } from '../../plugins/header-rules/index.js';
import { json } from '../../settings/kinds.js';

import { defineFields } from './spec.js';

/** The `header-rules` plugin's settings: the rules and the bounds on what they forward. */
export const HEADER_RULES_PLUGIN_FIELDS = defineFields([
  {
    key: 'headerRules.rules',
    formerKey: 'headerRules',
    env: 'GATEWAY_HEADER_RULES',
    formerEnv: ['HEADER_RULES'],
    parse: json,
    meaning:
      '`header-rules`: Apollo Router-shaped rules, JSON; see [Header rules](plugins.md#header-rules-header-rules)',
    feature: 'header-rules',
  },
  {
    key: 'headerRules.maxValueBytes',
    formerKey: 'headerRulesMaxValueBytes',
    env: 'GATEWAY_HEADER_RULES_MAX_VALUE_BYTES',
    formerEnv: ['HEADER_RULES_MAX_VALUE_BYTES'],
    parse: HEADER_RULES_VALUES.maxValueBytes,
    meaning:
      '`header-rules`: bytes (UTF-8) of one header value the rules forward; a client header over it is answered 431 `REQUEST_HEADER_FIELDS_TOO_LARGE` before any subgraph is asked',
    docDefault: '`4kb`',
    feature: 'header-rules',
  },
  {
    key: 'headerRules.maxTotalBytes',
    formerKey: 'headerRulesMaxTotalBytes',
    env: 'GATEWAY_HEADER_RULES_MAX_TOTAL_BYTES',
    formerEnv: ['HEADER_RULES_MAX_TOTAL_BYTES'],
    parse: HEADER_RULES_VALUES.maxTotalBytes,
    meaning:
      '`header-rules`: bytes of every header the rules forward to one subgraph (names and values); over it, 431 as above',
    docDefault: '`8kb`',
    feature: 'header-rules',
  },
]);
