import {
  type MirroredQuery,
  SHADOW_HEADER,
  type ShadowAnswer,
  ShadowFailure,
  type ShadowLimits,
  type ShadowTarget,
} from './target.js';

/**
 * SHADOW_URL: another GraphQL endpoint (a candidate gateway, Apollo Router, `@apollo/gateway`),
 * sent the client's query, variables and operation name as JSON, with no client header but those
 * SHADOW_FORWARD_HEADERS names (the caller's identity stays here unless the operator says so).
 * Redirects are not followed: no connection the operator did not configure.
 */
export function urlTarget(url: string): ShadowTarget {
  return {
    name: 'url',
    async send(query: MirroredQuery, limits: ShadowLimits): Promise<ShadowAnswer> {
      const { signal } = limits;
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: {
            ...query.headers,
            'content-type': 'application/json',
            accept: 'application/json',
            [SHADOW_HEADER]: '1',
          },
          body: JSON.stringify({
            query: query.query,
            ...(query.variables && { variables: query.variables }),
            ...(query.operationName && { operationName: query.operationName }),
          }),
          redirect: 'error',
          signal,
        });
      } catch (error) {
        throw signal.aborted ? new ShadowFailure('timeout') : new ShadowFailure('unreachable', { cause: error });
      }
      return answerOf(await readCapped(response, limits));
    },
  };
}

/** The body as text, read as it streams and given up past `maxResponseBytes` (never held whole). */
async function readCapped(response: Response, { maxResponseBytes, signal }: ShadowLimits): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > maxResponseBytes) {
        await reader.cancel().catch(() => undefined);
        throw new ShadowFailure('too_large');
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof ShadowFailure) throw error;
    throw signal.aborted ? new ShadowFailure('timeout') : new ShadowFailure('unreachable', { cause: error });
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A GraphQL answer: an object with `data` or `errors`; anything else is not one to compare. */
function answerOf(text: string): ShadowAnswer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ShadowFailure('invalid_json');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ShadowFailure('not_graphql');
  const { data, errors } = parsed as { data?: unknown; errors?: unknown };
  if (data === undefined && errors === undefined) throw new ShadowFailure('not_graphql');
  if (errors !== undefined && !Array.isArray(errors)) throw new ShadowFailure('not_graphql');
  return { data, ...(errors !== undefined && { errors: errors as ShadowAnswer['errors'] & object }) };
}
