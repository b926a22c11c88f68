/**
 * Who the caller is, as established by the auth plugins (empty for an anonymous caller).
 *
 * A custom auth plugin adds its own facts without editing the core, by declaration
 * merging (as Fastify's decorators do):
 *
 * ```ts
 * declare module '@fedgw/gateway' {
 *   interface Identity { readonly tenant?: string }
 * }
 * ```
 * and returns `{ tenant }` from its `authenticate` hook. Facts from several plugins are
 * merged in plugin order; a later plugin's fact of the same name wins.
 */
export interface Identity {
  /** The JWT `sub` claim. */
  readonly subject?: string;
  /** Every verified JWT claim. */
  readonly claims?: Readonly<Record<string, unknown>>;
  /** The raw bearer token; kept only when a plugin is configured to forward it. */
  readonly token?: string;
  /** The API key's consumer name. */
  readonly consumer?: string;
}
