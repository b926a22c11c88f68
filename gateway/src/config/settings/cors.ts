import { corsOrigin, originPatterns } from '../../origin-policy/kinds.js';
import { SANDBOX_ORIGINS } from '../../origin-policy/settings.js';
import { boolean, integer, list, withDefault } from '../../settings/kinds.js';

import { defineFields } from './spec.js';

/**
 * Cross-origin access (CORS) and the one origin policy every transport shares; see
 * docs/browsers-and-clients.md. `config.cors` is the policy's settings (OriginSettings), named as Apollo Router's `cors`.
 */
export const CORS_FIELDS = defineFields([
  {
    key: 'cors.origins',
    formerKey: 'corsOrigins',
    env: 'CORS_ORIGINS',
    parse: withDefault(list(corsOrigin), [], { development: [...SANDBOX_ORIGINS] }),
    meaning:
      'origins (`https://app.example.com`, exact, no path) whose pages may call the gateway; `*` for any origin, only without `CORS_ALLOW_CREDENTIALS`. Empty: no cross-origin access (development: the Apollo Sandbox)',
    docDefault: 'none (dev: `https://sandbox.embed.apollographql.com,https://studio.apollographql.com`)',
  },
  {
    key: 'cors.matchOrigins',
    formerKey: 'corsMatchOrigins',
    env: 'CORS_MATCH_ORIGINS',
    parse: withDefault(originPatterns, []),
    meaning:
      'regular expressions, separated by spaces, an origin may match instead (the whole origin: each is anchored), e.g. `https://[a-z0-9-]+\\.preview\\.example\\.com`',
    docDefault: 'none',
  },
  {
    key: 'cors.allowCredentials',
    formerKey: 'corsAllowCredentials',
    env: 'CORS_ALLOW_CREDENTIALS',
    parse: withDefault(boolean, false),
    meaning: "allowed origins' pages may send cookies (`Access-Control-Allow-Credentials: true`)",
  },
  {
    key: 'cors.allowHeaders',
    formerKey: 'corsAllowHeaders',
    env: 'CORS_ALLOW_HEADERS',
    parse: withDefault(list(), []),
    meaning: 'request headers a preflight allows; empty: the ones the preflight asks for (as Apollo Router does)',
    docDefault: 'none (the ones asked for)',
  },
  {
    key: 'cors.exposeHeaders',
    formerKey: 'corsExposeHeaders',
    env: 'CORS_EXPOSE_HEADERS',
    parse: withDefault(list(), []),
    meaning:
      'response headers a page may read besides the CORS-safelisted ones (e.g. `x-request-id,ratelimit-remaining`)',
    docDefault: 'none',
  },
  {
    key: 'cors.maxAgeSeconds',
    formerKey: 'corsMaxAgeSeconds',
    env: 'CORS_MAX_AGE',
    parse: withDefault(integer(0, 86_400), 600),
    meaning:
      'seconds a browser may reuse a preflight (`Access-Control-Max-Age`; browsers cap it, Chrome at 7200); 0 sends none',
  },
]);
