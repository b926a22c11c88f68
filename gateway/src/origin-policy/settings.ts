import type { ConfigIssue } from '../errors.js';

/** Where the Apollo Sandbox calls from: the landing page embeds it, Studio hosts it. */
export const SANDBOX_ORIGINS = ['https://sandbox.embed.apollographql.com', 'https://studio.apollographql.com'] as const;

/** CORS_*, `config.cors`: who may call the gateway from a page on another origin (docs/browsers-and-clients.md). */
export interface OriginSettings {
  readonly origins: readonly string[];
  readonly matchOrigins: readonly string[];
  readonly allowCredentials: boolean;
  readonly allowHeaders: readonly string[];
  readonly exposeHeaders: readonly string[];
  readonly maxAgeSeconds: number;
}

/**
 * `*` with credentials would let every site act as the user: browsers refuse the combination,
 * and echoing the origin instead would grant it. Refused, as Apollo Router refuses it. The `cors`
 * group's rule (ADR 052), on its typed settings.
 */
export function checkOriginSettings({ cors }: { readonly cors: OriginSettings }, issues: ConfigIssue[]): void {
  if (cors.allowCredentials && cors.origins.includes('*')) {
    issues.push({
      field: 'CORS_ORIGINS',
      message: '"*" cannot be combined with CORS_ALLOW_CREDENTIALS=true: list the origins that may send cookies',
    });
  }
}
