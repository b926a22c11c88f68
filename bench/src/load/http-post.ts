import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { request } from 'undici';

export interface PostResult {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

/**
 * One JSON POST, for readiness polls and answer checks (not for load: the generators keep
 * their own connections). `apollo-require-preflight` satisfies every target's CSRF rule.
 */
export async function postJson(
  url: string,
  body: string,
  headers: Readonly<Record<string, string>> = {},
  timeoutMs = 10_000,
): Promise<PostResult> {
  const response = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'apollo-require-preflight': 'true', ...headers },
    body,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const bytes = Buffer.from(await response.body.arrayBuffer());
  return {
    status: response.statusCode,
    headers: response.headers,
    text: decode(bytes, response.headers['content-encoding']),
  };
}

/** The answer as text, decoded when the request asked for compression (the `compression` setup). */
function decode(bytes: Buffer, coding: string | string[] | undefined): string {
  if (coding === 'gzip') return gunzipSync(bytes).toString('utf8');
  if (coding === 'br') return brotliDecompressSync(bytes).toString('utf8');
  if (coding === 'deflate') return inflateSync(bytes).toString('utf8');
  return bytes.toString('utf8');
}
