import { withDefault } from '../../settings/kinds.js';
import { headerPairs } from './plugin-kinds.js';

import { defineFields } from './spec.js';

/** The `response-headers` plugin's settings: the headers it adds to each response. */
export const RESPONSE_HEADERS_PLUGIN_FIELDS = defineFields([
  {
    key: 'responseHeaders.headers',
    formerKey: 'responseHeaders',
    env: 'GATEWAY_RESPONSE_HEADERS',
    formerEnv: ['RESPONSE_HEADERS'],
    parse: withDefault(headerPairs, []),
    meaning: '`response-headers`: `name:value,…`, values may be `{uuid}` or `{requestId}`',
    feature: 'response-headers',
  },
]);
