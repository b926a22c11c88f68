/** Minimal GraphQL-over-HTTP client for the tests: real fetch over loopback. */
export interface GraphQLResult {
  status: number;
  headers: Headers;
  body: {
    data?: Record<string, unknown> | null;
    errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }[];
  };
  text: string;
}

export async function postGraphQL(
  url: string,
  payload: { query: string; variables?: Record<string, unknown>; operationName?: string },
  headers: Record<string, string> = {},
): Promise<GraphQLResult> {
  return send(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(payload),
  });
}

export async function send(url: string, init: RequestInit): Promise<GraphQLResult> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: GraphQLResult['body'] = {};
  try {
    body = JSON.parse(text);
  } catch {
    // left empty: the test asserts on `text` or `status`
  }
  return { status: response.status, headers: response.headers, body, text };
}
