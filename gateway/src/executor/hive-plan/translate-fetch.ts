// One Hive Router Fetch node as the Fetch node of @apollo/query-planner that the lean executor
// runs: the same operation, its `requires` and rewrites in Apollo's notation.

import type { FetchDataRewrite, FetchNode, QueryPlanSelectionNode } from '@apollo/query-planner';
import type {
  FetchNodePathSegment,
  FetchRewrite,
  FetchNode as HiveFetchNode,
  RequiresSelection,
} from '@graphql-hive/router-query-planner';
import { type OperationTypeNode, parse } from 'graphql';
import { Untranslatable } from './untranslatable.js';

/** What a Fetch node needs from its Hive source (a BatchFetch alias gives the same parts). */
export interface FetchParts {
  readonly serviceName: string;
  readonly operation: string;
  readonly operationName?: string | undefined;
  readonly operationKind?: HiveFetchNode['operationKind'];
  readonly variableUsages?: readonly string[] | undefined;
  readonly requires?: readonly RequiresSelection[] | undefined;
  readonly inputRewrites?: readonly FetchRewrite[] | undefined;
  readonly outputRewrites?: readonly FetchRewrite[] | undefined;
}

export function translateFetch(parts: FetchParts): FetchNode {
  const renames: FetchDataRewrite[] = [];
  const requires = parts.requires?.length ? translateRequires(parts.requires, [], renames) : undefined;
  const inputRewrites = [...renames, ...translateRewrites(parts.inputRewrites)];
  const outputRewrites = translateRewrites(parts.outputRewrites);
  return {
    kind: 'Fetch',
    serviceName: parts.serviceName,
    operation: parts.operation,
    operationName: parts.operationName,
    operationKind: (parts.operationKind ?? 'query') as OperationTypeNode,
    // Apollo's planner parses it too: data sources and plugins may read the document.
    operationDocumentNode: parse(parts.operation),
    ...(parts.variableUsages?.length && { variableUsages: [...parts.variableUsages] }),
    ...(requires && { requires }),
    ...(inputRewrites.length > 0 && { inputRewrites }),
    ...(outputRewrites.length > 0 && { outputRewrites }),
  };
}

/**
 * Hive's `requires`. A Field with an alias reads the entity's `name` key and sends it as `alias`
 * (Apollo's reads and writes one key): it becomes the field under its `name` and an input
 * KeyRenamer to `alias`, deepest first so each rename's path still names the keys as read.
 */
function translateRequires(
  selections: readonly RequiresSelection[],
  path: readonly string[],
  renames: FetchDataRewrite[],
): QueryPlanSelectionNode[] {
  return selections.map((selection): QueryPlanSelectionNode => {
    switch (selection.kind) {
      case 'Field': {
        const nested = selection.selections?.length
          ? translateRequires(selection.selections, [...path, selection.name], renames)
          : undefined;
        if (selection.alias !== undefined && selection.alias !== selection.name) {
          renames.push({ kind: 'KeyRenamer', path: [...path, selection.name], renameKeyTo: selection.alias });
        }
        return { kind: 'Field', name: selection.name, ...(nested && { selections: nested }) };
      }
      case 'InlineFragment':
        if (selection.skipIf !== undefined || selection.includeIf !== undefined) {
          throw new Untranslatable('a conditional inline fragment in requires');
        }
        return {
          kind: 'InlineFragment',
          typeCondition: selection.typeCondition,
          selections: translateRequires(selection.selections, [...path, `... on ${selection.typeCondition}`], renames),
        };
      default:
        throw new Untranslatable('a fragment spread in requires');
    }
  });
}

/** Hive's rewrites; a path step that names several types becomes one rewrite per type. */
export function translateRewrites(rewrites: readonly FetchRewrite[] | undefined): FetchDataRewrite[] {
  const translated: FetchDataRewrite[] = [];
  for (const rewrite of rewrites ?? []) {
    if ('KeyRenamer' in rewrite) {
      for (const path of expandPath(rewrite.KeyRenamer.path)) {
        translated.push({ kind: 'KeyRenamer', path, renameKeyTo: rewrite.KeyRenamer.renameKeyTo });
      }
    } else {
      const setter = 'ValueSetter' in rewrite ? rewrite.ValueSetter : rewrite;
      for (const path of expandPath(setter.path)) {
        translated.push({ kind: 'ValueSetter', path, setValueTo: setter.setValueTo });
      }
    }
  }
  return translated;
}

function expandPath(segments: readonly FetchNodePathSegment[]): string[][] {
  let paths: string[][] = [[]];
  for (const segment of segments) {
    const steps = 'Key' in segment ? [segment.Key] : segment.TypenameEquals.map((type) => `... on ${type}`);
    paths = paths.flatMap((path) => steps.map((step) => [...path, step]));
  }
  return paths;
}
