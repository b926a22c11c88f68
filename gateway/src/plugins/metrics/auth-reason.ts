import type { GraphQLError } from 'graphql';

/** The bounded reasons `gateway_auth_failures_total` is labelled with. */
export type AuthFailureReason = 'missing' | 'expired' | 'invalid' | 'malformed' | 'error';

/**
 * Why an `authenticate` hook refused a request, read from what the client is told (so
 * any auth plugin following the HTTP auth RFCs is classified, not just ours):
 * - 400 BAD_REQUEST: the credential header does not parse → `malformed`;
 * - 401 whose challenge says `error="invalid_token"` (RFC 6750 §3.1) → `expired` when its
 *   `error_description` says the token expired (the JWT plugin's), else `invalid` (bad
 *   signature, wrong issuer or audience…);
 * - any other 401: the challenge asks for a credential → `missing`;
 * - anything else (a plugin bug answered 500) → `error`.
 */
export function authFailureReason(error: Error): AuthFailureReason {
  const extensions = (error as Partial<GraphQLError>).extensions;
  const code = extensions?.code;
  if (code === 'BAD_REQUEST') return 'malformed';
  if (code !== 'UNAUTHENTICATED') return 'error';
  const headers = (extensions?.http as { headers?: { get(name: string): string | undefined } } | undefined)?.headers;
  const challenge = headers?.get('www-authenticate') ?? '';
  if (!/\berror="?invalid_token/i.test(challenge)) return 'missing';
  return /\berror_description="[^"]*\bexpired\b/i.test(challenge) ? 'expired' : 'invalid';
}
