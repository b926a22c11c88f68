import { API_KEY_VALUES } from '../../plugins/api-key/index.js';
import { withDefault } from '../../settings/kinds.js';
import { apiKeys } from './plugin-kinds.js';

import { defineFields } from './spec.js';

/** The `api-key` plugin's settings: the keys and the header carrying one. */
export const API_KEY_PLUGIN_FIELDS = defineFields([
  {
    key: 'apiKey.keys',
    formerKey: 'apiKeys',
    env: 'GATEWAY_API_KEYS',
    formerEnv: ['API_KEYS'],
    parse: withDefault(apiKeys, []),
    meaning: '`api-key`: `consumer:key` or `consumer:sha256:<hex>` entries, comma-separated; a secret, never logged',
    feature: 'api-key',
  },
  {
    key: 'apiKey.header',
    formerKey: 'apiKeyHeader',
    env: 'GATEWAY_API_KEY_HEADER',
    formerEnv: ['API_KEY_HEADER'],
    parse: API_KEY_VALUES.header,
    meaning: '`api-key`: the header carrying the key',
    feature: 'api-key',
  },
]);
