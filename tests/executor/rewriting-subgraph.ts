import { startTestHttpServer } from '@fedgw/test-support';

/** A subgraph request as the gateway sent it. */
export interface SubgraphRequest {
  readonly query: string;
  readonly variables?: { representations?: unknown[] } & Record<string, unknown>;
}

/** A subgraph's JSON answer, as its real subgraph gave it (before any rewrite). */
export interface SubgraphAnswer {
  data?: Record<string, unknown> | null;
  errors?: unknown[];
}

/**
 * What the test makes of an answer: another JSON body, or undefined to relay it unchanged;
 * a promise of either to answer later (to decide which of two parallel fetches ends first).
 */
export type Rewrite = (request: SubgraphRequest, answer: SubgraphAnswer) => unknown;

export interface RewritingSubgraph {
  readonly url: string;
  /** How the next answers are rewritten; none relays them unchanged. */
  rewrite(rewrite?: Rewrite): void;
  /** Answers changed since the last `rewrite()` call: 0 means the fault never reached a client. */
  readonly rewritten: number;
  close(): Promise<void>;
}

/**
 * A subgraph that answers wrongly in ways a real one could: it proxies each request to the real
 * subgraph at `target` and lets the test rewrite the JSON answer (a null where the schema says
 * non-null, an error with a path, fewer entities…). The chaos subgraph covers the faults that
 * are not a body (HTTP status, timeouts).
 */
export async function startRewritingSubgraph(target: string): Promise<RewritingSubgraph> {
  let current: Rewrite | undefined;
  let rewritten = 0;
  const server = await startTestHttpServer((request, response, body) => {
    const rewrite = current;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const userId = request.headers['x-user-id'];
    if (typeof userId === 'string') headers['x-user-id'] = userId;
    void fetch(target, { method: 'POST', headers, body })
      .then(async (upstream) => {
        const text = await upstream.text();
        const changed = await rewrite?.(JSON.parse(body) as SubgraphRequest, JSON.parse(text) as SubgraphAnswer);
        if (changed !== undefined) rewritten++;
        const answer = changed === undefined ? text : JSON.stringify(changed);
        response.writeHead(upstream.status, { 'content-type': 'application/json' });
        response.end(answer);
      })
      .catch((error: unknown) => {
        response.writeHead(502, { 'content-type': 'text/plain' });
        response.end(String(error));
      });
  });
  return {
    url: server.url,
    rewrite(rewrite) {
      current = rewrite;
      rewritten = 0;
    },
    get rewritten() {
      return rewritten;
    },
    close: () => server.close(),
  };
}
