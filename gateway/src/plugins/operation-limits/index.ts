import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  Kind,
  parse,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import type { GatewayPlugin } from '../../plugin-sdk/index.js';
import {
  asOptionsObject,
  ClientErrorCode,
  checkKnownKeys,
  defaultsOf,
  httpError,
  integer,
  type LegacyCode,
  OptionIssues,
  withDefault,
} from '../../plugin-sdk/index.js';
import { refuseBeforeParsing } from '../shared/refuse-before-parsing.js';

/**
 * Rejects operations that are too deep, too wide or too long with 400 before any subgraph is
 * called: MAX_DEPTH_LIMIT, MAX_ALIASES_LIMIT, MAX_ROOT_FIELDS_LIMIT (Apollo Router's codes, the
 * old OPERATION_LIMIT_EXCEEDED in `legacyCode`), or OPERATION_LIMIT_EXCEEDED for the limits the
 * Router does not have (characters, fields). Always on. Length and field count
 * are checked before Apollo Server parses and validates the document: validation is
 * quadratic in fields of one name (graphql-js's OverlappingFieldsCanBeMerged: 1,100 fields
 * took 170 ms of CPU), so a document over the limit is swapped for a trivial one and refused
 * without being validated. The rest is checked in `didResolveOperation`, the first hook whose
 * thrown errors Apollo Server turns into an HTTP status (earlier ones give a 500).
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
  /** Field selections written in the document (fragments counted once), checked before validation. Default: 500 */
  maxFields?: number;
}

/** The limits' schemas and defaults, which MAX_DEPTH, MAX_ALIASES… are read with too. */
export const OPERATION_LIMIT_VALUES = Object.freeze({
  maxDepth: withDefault(integer(1, 1000), 15),
  maxAliases: withDefault(integer(1, 10_000), 30),
  maxRootFields: withDefault(integer(1, 10_000), 20),
  maxCharacters: withDefault(integer(10, 10_000_000), 20_000),
  maxFields: withDefault(integer(1, 100_000), 500),
});
export const DEFAULT_OPERATION_LIMITS: Readonly<Required<OperationLimitsOptions>> = defaultsOf(OPERATION_LIMIT_VALUES);

export function operationLimits(options: OperationLimitsOptions = DEFAULT_OPERATION_LIMITS): GatewayPlugin {
  const issues = new OptionIssues();
  const known = Object.keys(DEFAULT_OPERATION_LIMITS);
  checkKnownKeys(issues, asOptionsObject('operation-limits', options), known);
  for (const field of known) {
    const key = field as keyof OperationLimitsOptions;
    issues.check(field, options[key], OPERATION_LIMIT_VALUES[key], field !== 'maxFields');
  }
  issues.throwIfAny('operation-limits');

  const limits = { ...options, maxFields: options.maxFields ?? DEFAULT_OPERATION_LIMITS.maxFields };
  const reject = (message: string) => httpError(ClientErrorCode.OPERATION_LIMIT_EXCEEDED, message);
  const rejectAs = (code: ClientErrorCode, message: string) =>
    httpError(code, message, {}, { legacyCode: 'OPERATION_LIMIT_EXCEEDED' satisfies LegacyCode });
  // Apollo Server reuses the parsed document of a repeated query: measure each one once.
  const measured = new WeakMap<DocumentNode, Measurements>();
  // Field counts of recent long documents, so a repeated one is parsed here once.
  const fieldCounts = new BoundedCache<string, number>(256);
  return {
    name: 'operation-limits',
    apollo: {
      async requestDidStart({ request, contextValue }) {
        // No await before this: Apollo Server parses the query right after.
        const early = beforeParsing(request.query, limits, fieldCounts);
        if (early) return refuseBeforeParsing(request, contextValue.scope, reject(early));
        return {
          async didResolveOperation({ document }) {
            const size = measured.get(document) ?? measure(document);
            measured.set(document, size);
            if (size.depth > options.maxDepth) {
              throw rejectAs(
                ClientErrorCode.MAX_DEPTH_LIMIT,
                `The query is ${size.depth} levels deep; the limit is ${options.maxDepth}.`,
              );
            }
            if (size.aliases > options.maxAliases) {
              throw rejectAs(
                ClientErrorCode.MAX_ALIASES_LIMIT,
                `The query has ${size.aliases} aliases; the limit is ${options.maxAliases}.`,
              );
            }
            if (size.rootFields > options.maxRootFields) {
              throw rejectAs(
                ClientErrorCode.MAX_ROOT_FIELDS_LIMIT,
                `The query has ${size.rootFields} root fields; the limit is ${options.maxRootFields}.`,
              );
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

/**
 * The refusal of a document that is too long, or that writes more fields than the limit
 * (counted on a parse of our own, only for a text long enough to hold that many: at least
 * two characters a field), or undefined. A text that does not parse is left to Apollo Server.
 */
function beforeParsing(
  query: string | undefined,
  options: Required<OperationLimitsOptions>,
  counts: BoundedCache<string, number>,
): string | undefined {
  if (query === undefined) return undefined;
  // Characters are code points: an emoji is one (two UTF-16 units). Counted only past the cheap bound.
  if (query.length > options.maxCharacters) {
    const characters = codePoints(query);
    if (characters > options.maxCharacters)
      return `The query has ${characters} characters; the limit is ${options.maxCharacters}.`;
  }
  if (query.length < 2 * options.maxFields) return undefined;
  let fields = counts.get(query);
  if (fields === undefined) {
    try {
      fields = countFields(parse(query, { noLocation: true }));
    } catch {
      return undefined;
    }
    counts.set(query, fields);
  }
  return fields > options.maxFields
    ? `The query selects ${fields} fields; the limit is ${options.maxFields}.`
    : undefined;
}

/** Field nodes written in the document; iterative, so no nesting can overflow the stack. */
function countFields(document: DocumentNode): number {
  let fields = 0;
  const pending: SelectionSetNode[] = [];
  for (const definition of document.definitions) {
    if ('selectionSet' in definition && definition.selectionSet) pending.push(definition.selectionSet);
  }
  for (let set = pending.pop(); set; set = pending.pop()) {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) fields++;
      if ('selectionSet' in selection && selection.selectionSet) pending.push(selection.selectionSet);
    }
  }
  return fields;
}

/** A Map that forgets its oldest entry past `max`. */
class BoundedCache<K, V> {
  readonly #entries = new Map<K, V>();
  constructor(private readonly max: number) {}
  get(key: K): V | undefined {
    return this.#entries.get(key);
  }
  set(key: K, value: V): void {
    this.#entries.set(key, value);
    if (this.#entries.size > this.max) this.#entries.delete(this.#entries.keys().next().value as K);
  }
}

/** The number of code points in `text`: its UTF-16 length less one per surrogate pair. */
function codePoints(text: string): number {
  let pairs = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xdc00 && unit <= 0xdfff && i > 0) {
      const previous = text.charCodeAt(i - 1);
      if (previous >= 0xd800 && previous <= 0xdbff) pairs++;
    }
  }
  return text.length - pairs;
}
