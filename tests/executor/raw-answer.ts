/** What a client receives, kept as bytes: what the two executors must answer identically. */
export interface RawAnswer {
  readonly status: number;
  readonly contentType: string | null;
  readonly body: Buffer;
}

export interface GraphQLPayload {
  readonly query: string;
  readonly variables?: Record<string, unknown>;
  readonly operationName?: string;
}

/** One POST, its body read as bytes (text() would decode, and could hide a byte that differs). */
export async function askRaw(url: string, payload: GraphQLPayload, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(payload),
  });
  const answer: RawAnswer = {
    status: response.status,
    contentType: response.headers.get('content-type'),
    body: Buffer.from(await response.arrayBuffer()),
  };
  return answer;
}

/** The body parsed, for the checks that the case produced what it meant to (a fault, an error). */
export function parsed(answer: RawAnswer): {
  data?: unknown;
  errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }[];
} {
  return JSON.parse(answer.body.toString('utf8'));
}
