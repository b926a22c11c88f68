// Hive's BatchFetch (one request, one aliased `_entities` field per group of entities) split
// into what Apollo's planner would make: a Fetch per alias, under a Flatten per path, in
// parallel (translate-plan.ts). The answers are the same; the subgraph gets one request per
// alias and path instead of one in all.
import type {
  BatchFetchNode,
  EntityBatchAlias,
  FetchNode,
  FlattenNodePathSegment,
} from '@graphql-hive/router-query-planner';
import {
  type DocumentNode,
  type FieldNode,
  Kind,
  type OperationDefinitionNode,
  parse,
  print,
  type VariableDefinitionNode,
  visit,
} from 'graphql';
import { Untranslatable } from './untranslatable.js';

const REPRESENTATIONS = 'representations';

/** One entity fetch of a batch, and where its entities are. */
export interface BatchPart {
  readonly path: readonly FlattenNodePathSegment[];
  readonly fetch: FetchNode;
}

export function splitBatch(batch: BatchFetchNode): BatchPart[] {
  const operation = onlyOperation(parse(batch.operation));
  const parts: BatchPart[] = [];
  for (const alias of batch.entityBatch.aliases) {
    const { text, variableUsages } = aliasOperation(operation, alias);
    const fetch: FetchNode = {
      kind: 'Fetch',
      serviceName: batch.serviceName,
      operation: text,
      operationName: batch.operationName,
      operationKind: batch.operationKind,
      variableUsages,
      requires: alias.requires,
      inputRewrites: alias.inputRewrites,
      outputRewrites: alias.outputRewrites,
    };
    for (const path of alias.paths) parts.push({ path, fetch });
  }
  return parts;
}

function onlyOperation(document: DocumentNode): OperationDefinitionNode {
  const [definition, ...rest] = document.definitions;
  if (definition?.kind !== Kind.OPERATION_DEFINITION || rest.length > 0) {
    throw new Untranslatable('a batch fetch that is not one operation');
  }
  return definition;
}

/** `query($representations: [_Any!]!, …the variables it uses) { _entities(…) { … } }` for one alias. */
function aliasOperation(
  operation: OperationDefinitionNode,
  alias: EntityBatchAlias,
): { text: string; variableUsages: string[] } {
  const field = operation.selectionSet.selections.find(
    (selection): selection is FieldNode => selection.kind === Kind.FIELD && selection.alias?.value === alias.alias,
  );
  if (!field) throw new Untranslatable(`a batch fetch without its alias ${alias.alias}`);
  const renamed = visit(
    { ...field, alias: undefined },
    {
      Variable: (variable) =>
        variable.name.value === alias.representationsVariableName
          ? { ...variable, name: { kind: Kind.NAME, value: REPRESENTATIONS } }
          : undefined,
    },
  );
  const used = new Set<string>();
  visit(renamed, { Variable: (variable) => void used.add(variable.name.value) });
  const definitions: VariableDefinitionNode[] = [];
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    if (name === alias.representationsVariableName) {
      definitions.push({
        ...definition,
        variable: { ...definition.variable, name: { kind: Kind.NAME, value: REPRESENTATIONS } },
      });
    } else if (used.has(name)) definitions.push(definition);
  }
  const single: OperationDefinitionNode = {
    ...operation,
    variableDefinitions: definitions,
    selectionSet: { kind: Kind.SELECTION_SET, selections: [renamed] },
  };
  return { text: print(single), variableUsages: [...used].filter((name) => name !== REPRESENTATIONS) };
}
