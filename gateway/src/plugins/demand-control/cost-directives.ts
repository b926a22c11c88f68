import { isTypeDefinitionNode, isTypeExtensionNode, parse } from 'graphql';
import { argument, intArgument, linkedName, stringList } from '../../plugin-sdk/index.js';

/** What the supergraph declares about one field's cost (IBM GraphQL cost spec, as Apollo composes it). */
export interface FieldCost {
  /** `@cost(weight:)` on the field. */
  readonly weight?: number;
  /** `@listSize(assumedSize:)`: the list's size when no slicing argument says it. */
  readonly assumedSize?: number;
  /** `@listSize(slicingArguments:)`: arguments whose value is the list's size (`first`, `limit`). */
  readonly slicingArguments?: readonly string[];
  /** `@listSize(sizedFields:)`: child fields the size applies to (connections: `edges`). */
  readonly sizedFields?: readonly string[];
}

/** `Type.field` → its declared cost, and `Type` → `@cost(weight:)` on the type. */
export interface CostDirectives {
  readonly fields: ReadonlyMap<string, FieldCost>;
  readonly types: ReadonlyMap<string, number>;
}

export const NO_COST_DIRECTIVES: CostDirectives = { fields: new Map(), types: new Map() };

const COST_SPEC = /^https:\/\/specs\.apollo\.dev\/cost\/v0\.\d+$/;

/**
 * Reads `@cost` and `@listSize` from a supergraph SDL. Composition (Federation 2.9+)
 * links them from the cost spec; the names follow that `@link`'s imports and aliases
 * (`cost__listSize` when not imported). The API schema Apollo Server validates against
 * has these directives stripped, hence this separate read.
 */
export function readCostDirectives(supergraphSdl: string): CostDirectives {
  const document = parse(supergraphSdl, { noLocation: true });
  const names = {
    cost: linkedName(document, COST_SPEC, 'cost', 'cost') ?? 'cost__cost',
    listSize: linkedName(document, COST_SPEC, 'cost', 'listSize') ?? 'cost__listSize',
  };

  const fields = new Map<string, FieldCost>();
  const types = new Map<string, number>();
  for (const definition of document.definitions) {
    if (!isTypeDefinitionNode(definition) && !isTypeExtensionNode(definition)) continue;
    const typeName = definition.name.value;
    for (const directive of definition.directives ?? []) {
      const weight = directive.name.value === names.cost ? intArgument(directive, 'weight') : undefined;
      if (weight !== undefined) types.set(typeName, weight);
    }
    if (!('fields' in definition) || !definition.fields) continue;
    for (const field of definition.fields) {
      const cost: { -readonly [K in keyof FieldCost]: FieldCost[K] } = {};
      for (const directive of field.directives ?? []) {
        if (directive.name.value === names.cost) cost.weight = intArgument(directive, 'weight');
        if (directive.name.value === names.listSize) {
          cost.assumedSize = intArgument(directive, 'assumedSize');
          cost.slicingArguments = stringList(argument(directive, 'slicingArguments'));
          cost.sizedFields = stringList(argument(directive, 'sizedFields'));
        }
      }
      const declared = Object.entries(cost).filter(([, value]) => value !== undefined);
      if (declared.length > 0) fields.set(`${typeName}.${field.name.value}`, Object.fromEntries(declared));
    }
  }
  return { fields, types };
}
