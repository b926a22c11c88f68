import type { QueryPlan } from '@apollo/query-planner';
import type { GraphQLError } from 'graphql';
import { ClientErrorCode } from '../error-registry.js';
import { httpError } from '../http-error.js';
import { uploadsIn } from './uploaded-file.js';

type Headers = { get(name: string): string | null | undefined } | undefined;

/** A request whose body was multipart: only those can hold files (a cheap test on every plan). */
export function isUploadRequest(headers: Headers): boolean {
  return headers?.get('content-type')?.toLowerCase().startsWith('multipart/form-data') === true;
}

/**
 * Files go to one subgraph fetch, a root one: a plan that would use a file variable in an entity
 * fetch (`requires`), or in more than one fetch, is refused before any subgraph is asked. Only a
 * multipart request can hold files; any other costs one header lookup.
 */
export function uploadPlanRefusal(
  plan: QueryPlan,
  request: { http?: { headers: Headers } | undefined; variables?: Readonly<Record<string, unknown>> | undefined },
): GraphQLError | undefined {
  if (!isUploadRequest(request.http?.headers)) return undefined;
  const names = new Set(uploadsIn(request.variables).map(({ path }) => path.split('.')[1] as string));
  if (names.size === 0) return undefined;
  let fetches = 0;
  let entityFetch = false;
  const visit = (node: unknown, depth: number): void => {
    if (depth > 64 || typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) {
      for (const inner of node) visit(inner, depth + 1);
      return;
    }
    const { kind } = node as { kind?: unknown };
    if (kind === 'Fetch') {
      const fetch = node as { variableUsages?: string[]; requires?: unknown };
      if (!fetch.variableUsages?.some((name) => names.has(name))) return;
      fetches += 1;
      if (fetch.requires) entityFetch = true;
      return;
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'path') visit(value, depth + 1);
  };
  visit(plan.node, 0);
  if (fetches <= 1 && !entityFetch) return undefined;
  return httpError(
    ClientErrorCode.UPLOAD_NOT_ALLOWED,
    'Files are accepted only in arguments of root mutation fields that one subgraph fetch resolves.',
  );
}

/** Throws uploadPlanRefusal's error, if any: Apollo Server answers an executor's GraphQLError with its status. */
export function refuseUploadPlan(plan: QueryPlan, request: Parameters<typeof uploadPlanRefusal>[1]): void {
  const refused = uploadPlanRefusal(plan, request);
  if (refused) throw refused;
}
