import { CLIENT_AWARENESS_VALUES } from '../../plugins/client-awareness/index.js';

import { defineFields } from './spec.js';

/** The `client-awareness` plugin's settings: the JWT claims naming the client and its version. */
export const CLIENT_AWARENESS_PLUGIN_FIELDS = defineFields([
  {
    key: 'clientAwareness.nameClaim',
    formerKey: 'clientNameClaim',
    env: 'CLIENT_AWARENESS_NAME_CLAIM',
    formerEnv: ['CLIENT_NAME_CLAIM'],
    parse: CLIENT_AWARENESS_VALUES.nameClaim,
    meaning: '`client-awareness`: the JWT claim giving `apollographql-client-name`',
    feature: 'client-awareness',
  },
  {
    key: 'clientAwareness.versionClaim',
    formerKey: 'clientVersionClaim',
    env: 'CLIENT_AWARENESS_VERSION_CLAIM',
    formerEnv: ['CLIENT_VERSION_CLAIM'],
    parse: CLIENT_AWARENESS_VALUES.versionClaim,
    meaning: '`client-awareness`: the JWT claim giving `apollographql-client-version`',
    feature: 'client-awareness',
  },
]);
