/**
 * What kind of failure one answer was, for the soak's error counts: `GRAPHQL <code>` for each
 * distinct `extensions.code` in a body's `errors` (a 2xx with errors, or an error status with a
 * GraphQL body), else `HTTP <status>`; `timeout` or the transport error's code when no answer came.
 * Never the body itself: only codes are kept.
 */
export function errorKinds(failure: { status?: number; body?: string; error?: unknown }): string[] {
  if (failure.status === undefined) return [transportKind(failure.error)];
  const codes = graphqlCodes(failure.body ?? '');
  if (codes.length > 0) return codes.map((code) => `GRAPHQL ${code}`);
  return [`HTTP ${failure.status}`];
}

function graphqlCodes(body: string): string[] {
  try {
    const parsed = JSON.parse(body) as { errors?: { extensions?: { code?: unknown } }[] };
    if (!Array.isArray(parsed.errors)) return [];
    const codes = parsed.errors.map((e) => (typeof e?.extensions?.code === 'string' ? e.extensions.code : 'NO_CODE'));
    return [...new Set(codes)];
  } catch {
    return [];
  }
}

function transportKind(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return 'timeout';
  return typeof code === 'string' ? code : 'transport error';
}
