// What QUERY_PLANNER=hive is asked to plan for one request (ADR 061): the document the gateway
// runs, and whether Apollo's planner must plan it instead.
import type { Operation } from '@apollo/federation-internals';
import {
  BREAK,
  type DocumentNode,
  Kind,
  type OperationDefinitionNode,
  print,
  type SelectionSetNode,
  visit,
} from 'graphql';
import type { RequestContext } from '../apollo-internals.js';
import type { Query } from './hive-planner.js';

/**
 * Always the printed document, never the text the client sent: a plugin may run another
 * document than the one sent (authorization's filter drops denied fields, `@stream` is
 * stripped), and what is planned is what reaches the subgraphs. Printed once per plan.
 */
export function secondPlannerQuery({ request, document }: RequestContext, operation: Operation): Query {
  const apolloOnly =
    operation.rootKind === 'subscription' ||
    operation.selectionSet.hasDefer() ||
    introspects(document) ||
    onlyRootTypename(document, request.operationName);
  return { text: print(document), operationName: request.operationName, apolloOnly };
}

/** The document selects `__schema` or `__type` (which only Apollo's planner leaves to the executor). */
function introspects(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Field(field) {
      if (field.name.value !== '__schema' && field.name.value !== '__type') return undefined;
      found = true;
      return BREAK;
    },
  });
  return found;
}

/**
 * The operation selects nothing but `__typename` at its root (`{ __typename }`, a health
 * probe's query). Apollo's plan answers it with no fetch; Hive's sends it to a subgraph (a
 * `mutation { __typename }` as a mutation), which fails when that subgraph is down.
 */
function onlyRootTypename(document: DocumentNode, operationName: string | null | undefined): boolean {
  const fragments = new Map<string, SelectionSetNode>();
  let operation: OperationDefinitionNode | undefined;
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition.selectionSet);
    else if (
      definition.kind === Kind.OPERATION_DEFINITION &&
      (!operationName || definition.name?.value === operationName)
    )
      operation ??= definition;
  }
  const typenameOnly = (set: SelectionSetNode, seen: Set<string>): boolean =>
    set.selections.every((selection) => {
      if (selection.kind === Kind.FIELD) return selection.name.value === '__typename';
      if (selection.kind === Kind.INLINE_FRAGMENT) return typenameOnly(selection.selectionSet, seen);
      const name = selection.name.value;
      const spread = fragments.get(name);
      if (!spread || seen.has(name)) return true;
      return typenameOnly(spread, new Set(seen).add(name));
    });
  return operation !== undefined && typenameOnly(operation.selectionSet, new Set());
}
