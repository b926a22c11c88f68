// Apart from jwt-auth.ts, so the config parser can read them without loading jose.
/** The defaults of the JWT plugin's options (JwtAuthOptions); the config parser uses them too. */
export const JWT_DEFAULTS = Object.freeze({
  jwksTimeoutMs: 5_000,
  jwksCooldownMs: 30_000,
  jwksCacheMaxAgeMs: 600_000,
  clockToleranceSec: 30,
  required: true,
  forwardToken: false,
  header: 'authorization',
  scheme: 'Bearer',
});
