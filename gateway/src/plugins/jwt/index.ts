// JWT authentication at the edge: the gateway verifies the caller's token once (with jose),
// then tells subgraphs who the caller is through headers they can trust, because the
// gateway deletes any client-sent copy first. Keys come from a JWKS (remote or file) or an
// HS shared secret; every failure is a 401 (or a 400 for a header that does not parse),
// never a 500, and the token never appears in an error message or a log line.
import type { JWTPayload } from 'jose';
import type { GatewayPlugin, Identity } from '../../plugin-sdk/index.js';
import { ClientErrorCode, httpError, OptionIssues } from '../../plugin-sdk/index.js';
import { readCredential } from '../shared/bearer.js';
import { claimHeaderValue } from '../shared/header-values.js';
import { checkOptions } from './check-options.js';
import { createVerifier, type TokenVerifier } from './keys.js';
import { type JwtAuthOptions, PLUGIN_NAME } from './options.js';

export { JWT_DEFAULTS, type JwtAlgorithm, type JwtAuthOptions } from './options.js';

const MISSING_MESSAGE = 'Authentication required';
const INVALID_MESSAGE = 'Invalid or expired token';

/**
 * Verifies a JWT on every request. Decisions for what the client sent (RFC 6750 §3.1):
 * - nothing → 401 when `required` (anonymous otherwise);
 * - another scheme (`Basic x`, a lone word like `garbage`) → 401 `UNAUTHENTICATED`, in
 *   both modes: the client tried to authenticate in a way this gateway does not accept;
 * - our scheme with no token or a value that is not one token (`Bearer`, `Bearer a b`)
 *   → 400 `BAD_REQUEST` (`error="invalid_request"`);
 * - a token that fails verification for any reason, including an unreachable JWKS
 *   endpoint → 401 `UNAUTHENTICATED` (`error="invalid_token"`).
 */
export function jwtAuth(options: JwtAuthOptions): GatewayPlugin {
  const issues = new OptionIssues();
  const { keySource, verifyOptions, tokenSource, required, claimHeaders, forwardToken, logger } = checkOptions(
    issues,
    options,
  );
  const verifier = keySource && createVerifier(issues, keySource, verifyOptions, logger);
  issues.throwIfAny(PLUGIN_NAME);
  // Without issues, exactly one key source is set and its keys loaded.
  const verify = verifier as TokenVerifier;

  const schemeName = tokenSource.scheme || 'Bearer';
  const malformedMessage = `Malformed ${tokenSource.header} header: expected ${tokenSource.scheme ? `"${tokenSource.scheme} <token>"` : 'a bearer token'}`;
  // Every header this plugin owns on subgraph requests; deleted before anything is set.
  const ownedHeaders = [...new Set(['authorization', tokenSource.header, ...claimHeaders.map(([, header]) => header)])];

  const reject = (requestId: string, reason: string): never => {
    logger?.debug({ requestId, plugin: PLUGIN_NAME, reason }, 'jwt rejected');
    // RFC 6750 §3's own example: an expired token says so, so a client knows to refresh it
    // (and metrics can count expiries apart from forgeries). Nothing else is told.
    const description = reason === 'ERR_JWT_EXPIRED' ? ', error_description="The access token expired"' : '';
    throw httpError(ClientErrorCode.UNAUTHENTICATED, INVALID_MESSAGE, {
      'www-authenticate': `${schemeName} error="invalid_token"${description}`,
    });
  };

  return {
    name: PLUGIN_NAME,

    async authenticate(scope): Promise<Partial<Identity> | undefined> {
      const credential = readCredential(scope.headers, tokenSource);
      switch (credential.kind) {
        case 'none':
          if (!required) return undefined;
          throw httpError(ClientErrorCode.UNAUTHENTICATED, MISSING_MESSAGE, { 'www-authenticate': schemeName });
        case 'other-scheme':
          throw httpError(ClientErrorCode.UNAUTHENTICATED, MISSING_MESSAGE, { 'www-authenticate': schemeName });
        case 'malformed':
          throw httpError(ClientErrorCode.BAD_REQUEST, malformedMessage, {
            'www-authenticate': `${schemeName} error="invalid_request"`,
          });
      }
      let payload: JWTPayload;
      try {
        payload = await verify(credential.token);
      } catch (error) {
        return reject(scope.requestId, reasonOf(error));
      }
      const claims = Object.freeze({ ...payload });
      return {
        // An empty `sub` names nobody: no `sub:` key for the rate limit or subscriptions to share.
        ...(typeof payload.sub === 'string' && payload.sub !== '' ? { subject: payload.sub } : {}),
        claims,
        ...(forwardToken ? { token: credential.token } : {}),
      };
    },

    onSubgraphRequest({ headers, context }) {
      for (const name of ownedHeaders) delete headers[name];
      const { claims, token } = context.identity;
      if (claims) {
        for (const [claim, header] of claimHeaders) {
          const value = claimHeaderValue(claims[claim]);
          if (value !== undefined) headers[header] = value;
        }
      }
      if (forwardToken && token) headers.authorization = `Bearer ${token}`;
    },
  };
}

/** A short, token-free reason: jose's stable error code, or the error's name. */
function reasonOf(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const { code, name } = error as { code?: unknown; name?: unknown };
    if (typeof code === 'string') return code;
    if (typeof name === 'string') return name;
  }
  return 'unknown';
}
