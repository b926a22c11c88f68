import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  Kind,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import type { GatewayPlugin } from '../contract/index.js';
import { ClientErrorCode } from '../error-registry.js';
import { httpError } from './http-error.js';
import { asOptionsObject, checkKnownKeys, OptionIssues } from './options.js';

/**
 * Rejects operations that are too deep, too wide or too long with 400
 * OPERATION_LIMIT_EXCEEDED before any subgraph is called. Always on. The checks run in
 * `didResolveOperation`, the first hook whose thrown errors Apollo Server turns into an
 * HTTP status (earlier hooks give a 500); the parser's own token limit
 * (`parseOptions.maxTokens`) bounds the parse and validation work before that.
 */
export interface OperationLimitsOptions {
  /** Deepest field nesting; introspection (`__schema`, `__type`) is not counted. Default: 15 */
  maxDepth: number;
  /** Aliased fields in the whole document. Default: 30 */
  maxAliases: number;
  /** Fields selected at the root of one operation. Default: 20 */
  maxRootFields: number;
  /** Characters in the query text. Default: 20,000 */
  maxCharacters: number;
}

export const DEFAULT_OPERATION_LIMITS: Readonly<OperationLimitsOptions> = Object.freeze({
  maxDepth: 15,
  maxAliases: 30,
  maxRootFields: 20,
  maxCharacters: 20_000,
});

export function operationLimits(options: OperationLimitsOptions = DEFAULT_OPERATION_LIMITS): GatewayPlugin {
  const issues = new OptionIssues();
  const known = Object.keys(DEFAULT_OPERATION_LIMITS);
  checkKnownKeys(issues, asOptionsObject('operation-limits', options), known);
  for (const field of known) issues.integer(field, options[field as keyof OperationLimitsOptions], 1, undefined, true);
  issues.throwIfAny('operation-limits');

  const reject = (message: string) => httpError(ClientErrorCode.OPERATION_LIMIT_EXCEEDED, message);
  // Apollo Server reuses the parsed document of a repeated query: measure each one once.
  const measured = new WeakMap<DocumentNode, Measurements>();
  return {
    name: 'operation-limits',
    apollo: {
      async requestDidStart() {
        return {
          async didResolveOperation({ request, document }) {
            const length = request.query?.length ?? 0;
            if (length > options.maxCharacters) {
              throw reject(`The query has ${length} characters; the limit is ${options.maxCharacters}.`);
            }
            const size = measured.get(document) ?? measure(document);
            measured.set(document, size);
            if (size.depth > options.maxDepth) {
              throw reject(`The query is ${size.depth} levels deep; the limit is ${options.maxDepth}.`);
            }
            if (size.aliases > options.maxAliases) {
              throw reject(`The query has ${size.aliases} aliases; the limit is ${options.maxAliases}.`);
            }
            if (size.rootFields > options.maxRootFields) {
              throw reject(`The query has ${size.rootFields} root fields; the limit is ${options.maxRootFields}.`);
            }
          },
        };
      },
    },
  };
}

interface Measurements {
  depth: number;
  aliases: number;
  rootFields: number;
}

/** Depth and root fields of the worst operation, aliases of the whole document. */
export function measure(document: DocumentNode): Measurements {
  const fragments = new Map<string, FragmentDefinitionNode>();
  let aliases = 0;
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    if ('selectionSet' in definition && definition.selectionSet) aliases += countAliases(definition.selectionSet);
  }
  const depth = new SelectionMeasure(
    fragments,
    (field, below) => (field.name.value === '__schema' || field.name.value === '__type' ? 0 : 1 + below()),
    Math.max,
  );
  const width = new SelectionMeasure(
    fragments,
    () => 1,
    (a, b) => a + b,
  );
  let result = { depth: 0, aliases, rootFields: 0 };
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    result = {
      ...result,
      depth: Math.max(result.depth, depth.of(definition.selectionSet)),
      rootFields: Math.max(result.rootFields, width.of(definition.selectionSet)),
    };
  }
  return result;
}

/**
 * Folds a value over a selection set, expanding fragments. Each fragment is measured
 * once (memoized), so fragments that spread each other many times cannot make this
 * exponential; a fragment cycle (not yet rejected by validation) counts as 0.
 */
class SelectionMeasure {
  readonly #memo = new Map<string, number>();
  readonly #visiting = new Set<string>();
  constructor(
    private readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>,
    private readonly field: (field: FieldNode, below: () => number) => number,
    private readonly combine: (a: number, b: number) => number,
  ) {}

  of(set: SelectionSetNode): number {
    let total = 0;
    for (const selection of set.selections) {
      total = this.combine(total, this.#selection(selection));
    }
    return total;
  }

  #selection(selection: SelectionNode): number {
    if (selection.kind === Kind.FIELD) {
      const nested = selection.selectionSet;
      return this.field(selection, () => (nested ? this.of(nested) : 0));
    }
    if (selection.kind === Kind.INLINE_FRAGMENT) return this.of(selection.selectionSet);
    const name = selection.name.value;
    const known = this.#memo.get(name);
    if (known !== undefined) return known;
    const fragment = this.fragments.get(name);
    if (!fragment || this.#visiting.has(name)) return 0;
    this.#visiting.add(name);
    const value = this.of(fragment.selectionSet);
    this.#visiting.delete(name);
    this.#memo.set(name, value);
    return value;
  }
}

function countAliases(set: SelectionSetNode): number {
  let count = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD && selection.alias) count++;
    if ('selectionSet' in selection && selection.selectionSet) count += countAliases(selection.selectionSet);
  }
  return count;
}
