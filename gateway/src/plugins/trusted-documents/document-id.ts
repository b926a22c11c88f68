import type { GraphQLRequest } from '@apollo/server';

/** Body fields (or GET parameters) that carry a document id: GraphQL-over-HTTP's, then Relay's. */
export const DOCUMENT_ID_FIELDS = ['documentId', 'doc_id', 'id'] as const;

export type DocumentId =
  /** No id in the request. */
  { kind: 'none' } | { kind: 'id'; id: string } | { kind: 'bad'; message: string };

/**
 * The document id a request without a query carries: Apollo's
 * `extensions.persistedQuery.sha256Hash` (version 1) or a `documentId` / `doc_id` / `id`
 * body field (GET: URL parameter). Several ids that disagree, or a `persistedQuery` of
 * another shape, are `bad`: Apollo's own APQ cache must never be the one to resolve a
 * document while trusted documents are on.
 */
export function documentIdOf(request: GraphQLRequest): DocumentId {
  const ids = new Set<string>();
  const persisted: unknown = request.extensions?.persistedQuery;
  if (persisted !== undefined && persisted !== null) {
    const { version, sha256Hash } = persisted as { version?: unknown; sha256Hash?: unknown };
    if (version !== 1 || typeof sha256Hash !== 'string' || sha256Hash === '') {
      return { kind: 'bad', message: 'extensions.persistedQuery must be { "version": 1, "sha256Hash": "<id>" }.' };
    }
    ids.add(sha256Hash);
  }
  const fields = idFields(request);
  for (const name of DOCUMENT_ID_FIELDS) {
    for (const value of fields(name)) {
      if (value === undefined || value === null) continue;
      if (typeof value !== 'string' || value === '')
        return { kind: 'bad', message: `${name} must be a non-empty string.` };
      ids.add(value);
    }
  }
  if (ids.size > 1) return { kind: 'bad', message: 'The request carries several different document ids.' };
  const [id] = ids;
  return id === undefined ? { kind: 'none' } : { kind: 'id', id };
}

/** Reads a top-level field of the POST body, or every value of a GET URL parameter (repeats included). */
function idFields(request: GraphQLRequest): (name: string) => readonly unknown[] {
  const http = request.http;
  if (!http) return () => [];
  if (http.method === 'GET') {
    const params = new URLSearchParams(http.search);
    return (name) => params.getAll(name);
  }
  const body = http.body;
  if (typeof body !== 'object' || body === null) return () => [];
  return (name) => [(body as Record<string, unknown>)[name]];
}
