import type { ConfigIssue } from '../errors.js';

/** Where the Apollo Sandbox calls from: the landing page embeds it, Studio hosts it. */
export const SANDBOX_ORIGINS = ['https://sandbox.embed.apollographql.com', 'https://studio.apollographql.com'] as const;

/** CORS_*: who may call the gateway from a page on another origin (docs/browsers-and-clients.md). */
export interface OriginSettings {
  readonly corsOrigins: readonly string[];
  readonly corsMatchOrigins: readonly string[];
  readonly corsAllowCredentials: boolean;
  readonly corsAllowHeaders: readonly string[];
  readonly corsExposeHeaders: readonly string[];
  readonly corsMaxAgeSeconds: number;
}

/**
 * `*` with credentials would let every site act as the user: browsers refuse the combination,
 * and echoing the origin instead would grant it. Refused, as Apollo Router refuses it.
 */
export function checkOriginSettings(values: Record<string, unknown>, issues: ConfigIssue[]): void {
  const origins = (values.corsOrigins ?? []) as string[];
  if (values.corsAllowCredentials === true && origins.includes('*')) {
    issues.push({
      field: 'CORS_ORIGINS',
      message: '"*" cannot be combined with CORS_ALLOW_CREDENTIALS=true: list the origins that may send cookies',
    });
  }
}
