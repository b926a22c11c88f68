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
  return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
}
