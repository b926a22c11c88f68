// The representations an entity fetch sends: each entity's key fields, selected from the
// data as executeQueryPlan.js selects them.
import { isObjectOfType } from '@apollo/gateway/dist/dataRewrites.js';
import { getResponseName, type QueryPlanSelectionNode } from '@apollo/query-planner';
import { type GraphQLSchema, Kind } from 'graphql';
import { deepMerge } from './deep-merge.js';

type Json = Record<string, unknown>;

/** executeQueryPlan.js's `executeSelectionSet`: an entity's representation, or null when a key field is missing. */
export function selectRepresentation(
  schema: GraphQLSchema,
  source: Json | null,
  selections: readonly QueryPlanSelectionNode[],
): Json | null {
  if (source === null) return null;
  // A plain object, not Object.create(null) (a dictionary-mode object, several times larger):
  // its keys are the plan's key fields, schema names, so never `__proto__`.
  let result: Json = {};
  /** Nothing written to `result` yet: a fragment's selection can become it, where deepMerge would copy it. */
  let empty = true;
  for (const selection of selections) {
    if (selection.kind === Kind.FIELD) {
      const responseName = getResponseName(selection);
      const nested = selection.selections;
      const value = source[responseName];
      if (!Object.hasOwn(source, responseName) || typeof value === 'undefined') return null;
      if (Array.isArray(value)) {
        result[responseName] = nested ? selectEach(schema, value, nested) : value.slice();
      } else if (nested) {
        result[responseName] = selectRepresentation(schema, value as Json | null, nested);
      } else {
        result[responseName] = value;
      }
      empty = false;
    } else {
      if (!selection.typeCondition || !source) continue;
      if (isObjectOfType(schema, source, selection.typeCondition)) {
        // deepMerge into an empty object copies each key of a fresh object of ours: the same object, one fewer.
        const selected = selectRepresentation(schema, source, selection.selections);
        if (selected === null) continue; // as deepMerge(result, null)
        if (empty) result = selected;
        else deepMerge(result, selected);
        empty = false;
      }
    }
  }
  return result;
}

/** `items.map((item) => selectRepresentation(schema, item, nested))` without a closure per call. */
function selectEach(schema: GraphQLSchema, items: unknown[], nested: readonly QueryPlanSelectionNode[]): unknown[] {
  const selected = new Array(items.length);
  for (let index = 0; index < items.length; index++) {
    selected[index] = selectRepresentation(schema, items[index] as Json | null, nested);
  }
  return selected;
}
