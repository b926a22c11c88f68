import {
  type GraphQLField,
  type GraphQLInterfaceType,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  isAbstractType,
  isInterfaceType,
  isNonNullType,
  isObjectType,
} from 'graphql';

export interface GeneratedOperation {
  readonly query: string;
  readonly variables: Record<string, unknown>;
}

/** Sizes a client may ask for; `first` must be 1..100 on this project's subgraphs. */
const SIZES = [1, 2, 3, 5, 10, 11, 20, 50, 99, 100];
/** Valid ids for the root fields that take one (the seeded dataset's ranges). */
const IDS: Record<string, [string, number]> = {
  user: ['user-', 1000],
  product: ['product-', 500],
  review: ['review-', 5000],
};
/**
 * Values for other required scalar arguments (addReview's). Ints reach past 1..5 and strings include
 * a blank one, so some mutations are refused by the subgraph's validation and answer an error instead.
 */
const ARGUMENT_INTS = [0, 1, 2, 3, 4, 5, 6];
const ARGUMENT_STRINGS = ['Works as described.', '  padded  ', 'Ünïcödé ✓ 🚀', ' '];
/** search(text:)'s: users, products and notes, some of each, and nothing. */
const SEARCH_TEXTS = ['rob torvalds', 'kettle', 'call', 'grace', 'zzz'];
/** Deep enough for three nested lists (topProducts → reviews → author → reviews → …). */
const MAX_DEPTH = 5;

/**
 * A random valid operation on `schema`'s query type (or its mutation type: required arguments
 * are filled from the same id ranges): random subsets of each type's fields,
 * list sizes as literals, variables sent, variable defaults, schema defaults or null,
 * selections wrapped in named or inline fragments, aliased copies, and @include/@skip
 * decided by literals, variables or their defaults.
 */
export function generateOperation(
  schema: GraphQLSchema,
  random: () => number,
  kind: 'query' | 'mutation' = 'query',
): GeneratedOperation {
  return new Generator(random, schema).operation(schema, kind);
}

class Generator {
  readonly #definitions: string[] = [];
  readonly #variables: Record<string, unknown> = {};
  readonly #fragments: string[] = [];
  #names = 0;

  constructor(
    private readonly random: () => number,
    private readonly schema: GraphQLSchema,
  ) {}

  operation(schema: GraphQLSchema, kind: 'query' | 'mutation'): GeneratedOperation {
    const root = kind === 'query' ? schema.getQueryType() : schema.getMutationType();
    if (!root) throw new Error(`the schema has no ${kind} type`);
    const selection = this.#selection(root, 0);
    const variables = this.#definitions.length > 0 ? `(${this.#definitions.join(', ')})` : '';
    return {
      query: [`${kind} Generated${variables} { ${selection} }`, ...this.#fragments].join('\n'),
      variables: this.#variables,
    };
  }

  #chance(p: number): boolean {
    return this.random() < p;
  }

  #pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)] as T;
  }

  #name(prefix: string): string {
    this.#names += 1;
    return `${prefix}${this.#names}`;
  }

  #selection(type: GraphQLObjectType | GraphQLInterfaceType, depth: number): string {
    const fields = Object.values(type.getFields()).filter((field) => field.name !== 'me');
    let picked = fields.filter(() => this.#chance(0.45));
    if (picked.length === 0) picked = [this.#pick(fields)];
    const parts = picked.map((field) => this.#field(type, field, depth));
    // An aliased copy of a field already selected: both copies are answered.
    if (this.#chance(0.2)) parts.push(this.#field(type, this.#pick(picked), depth, this.#name('copy')));
    return parts.join(' ');
  }

  #field(
    parent: GraphQLObjectType | GraphQLInterfaceType,
    field: GraphQLField<unknown, unknown>,
    depth: number,
    alias?: string,
  ): string {
    const type = getNamedType(field.type);
    if ((isObjectType(type) || isAbstractType(type)) && depth >= MAX_DEPTH) return '__typename';
    const name = alias ?? (this.#chance(0.1) ? this.#name('alias') : undefined);
    const args = this.#arguments(field);
    const directive = this.#chance(0.15) ? this.#directive() : '';
    let children = '';
    if (isObjectType(type)) children = ` { ${this.#selection(type, depth + 1)} }`;
    else if (isAbstractType(type)) {
      // __typename, maybe the interface's own fields, and a fragment on some of its types.
      const parts = ['__typename'];
      if (isInterfaceType(type) && this.#chance(0.4)) parts.push(this.#selection(type, depth + 1));
      for (const member of this.schema.getPossibleTypes(type)) {
        if (this.#chance(0.6)) parts.push(`... on ${member.name} { ${this.#selection(member, depth + 1)} }`);
      }
      children = ` { ${parts.join(' ')} }`;
    }
    const text = `${name ? `${name}: ` : ''}${field.name}${args}${directive}${children}`;
    const wrap = this.random();
    if (wrap < 0.1) return `... on ${parent.name}${this.#chance(0.3) ? this.#directive() : ''} { ${text} }`;
    if (wrap < 0.2) {
      const fragment = this.#name('Part');
      this.#fragments.push(`fragment ${fragment} on ${parent.name} { ${text} }`);
      return `...${fragment}`;
    }
    return text;
  }

  #arguments(field: GraphQLField<unknown, unknown>): string {
    const given: string[] = [];
    for (const arg of field.args) {
      if (arg.name === 'first') {
        const value = this.#size();
        if (value !== undefined) given.push(`first: ${value}`);
      } else if (arg.name === 'id') {
        const [prefix, count] = IDS[field.name] ?? ['', 1];
        const id = `${prefix}${1 + Math.floor(this.random() * count)}`;
        given.push(`id: ${this.#chance(0.5) ? JSON.stringify(id) : this.#variable('ID!', { sent: id })}`);
      } else if (isNonNullType(arg.type) && arg.defaultValue === undefined) {
        // A required scalar: a literal, or a variable sent.
        const value = this.#scalar(arg.name, getNamedType(arg.type).name);
        const literal = this.#chance(0.7);
        given.push(
          `${arg.name}: ${literal ? JSON.stringify(value) : this.#variable(String(arg.type), { sent: value })}`,
        );
      }
    }
    return given.length > 0 ? `(${given.join(', ')})` : '';
  }

  /** `productId` takes a product's id; other scalars take their type's values above. */
  #scalar(name: string, type: string): string | number {
    if (type === 'ID') {
      const [prefix, count] = IDS[name.replace(/Id$/, '')] ?? ['', 1];
      return `${prefix}${1 + Math.floor(this.random() * count)}`;
    }
    if (name === 'text') return this.#pick(SEARCH_TEXTS);
    return type === 'Int' ? this.#pick(ARGUMENT_INTS) : this.#pick(ARGUMENT_STRINGS);
  }

  /** `first`: a literal, a variable sent, a variable's default, the schema's default or null. */
  #size(): string | undefined {
    const size = this.#pick(SIZES);
    switch (this.#pick(['literal', 'sent', 'default', 'sent over default', 'unset', 'omitted', 'null', 'null sent'])) {
      case 'literal':
        return String(size);
      case 'sent':
        return this.#variable('Int', { sent: size });
      case 'default':
        return this.#variable(`Int = ${size}`);
      case 'sent over default':
        return this.#variable(`Int = ${this.#pick(SIZES)}`, { sent: size });
      case 'unset':
        return this.#variable('Int');
      case 'null':
        return 'null';
      case 'null sent':
        return this.#variable('Int', { sent: null });
      default:
        return undefined;
    }
  }

  #directive(): string {
    const name = this.#chance(0.5) ? 'include' : 'skip';
    const decided = this.#chance(0.5);
    const condition = this.#pick([
      () => String(decided),
      () => this.#variable('Boolean!', { sent: decided }),
      () => this.#variable(`Boolean = ${decided}`),
      () => this.#variable(`Boolean = ${!decided}`, { sent: decided }),
    ])();
    return ` @${name}(if: ${condition})`;
  }

  /** Declares `$vN: type` (with its default, if any), and sends a value only when given one. */
  #variable(type: string, value?: { sent: unknown }): string {
    const name = this.#name('v');
    this.#definitions.push(`$${name}: ${type}`);
    if (value) this.#variables[name] = value.sent;
    return `$${name}`;
  }
}
