import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { measure, operationLimits } from '../../../src/plugins/operation-limits/index.js';
import { optionsError } from '../helpers/options-error.js';

describe('measure', () => {
  it('counts depth through fragments, ignoring introspection', () => {
    const document = parse(`
      query { user(id: "1") { ...U } __schema { types { fields { type { ofType { name } } } } } }
      fragment U on User { orders { product { ...P } } }
      fragment P on Product { reviews { author { name } } }`);
    expect(measure(document).depth).toBe(6);
  });

  it('counts aliases in the whole document and root fields per operation', () => {
    const document = parse(`
      query A { a: user(id: "1") { id } b: user(id: "2") { n: name } ...Roots }
      fragment Roots on Query { me { id } topProducts { id } }`);
    expect(measure(document)).toEqual({ depth: 2, aliases: 3, rootFields: 4 });
  });

  it('stays linear when fragments spread each other many times', () => {
    const fragments = Array.from(
      { length: 40 },
      (_, i) => `fragment F${i} on User { ${i < 39 ? `...F${i + 1} ...F${i + 1}` : 'id'} }`,
    ).join('\n');
    const document = parse(`query { me { ...F0 } }\n${fragments}`);
    expect(measure(document).depth).toBe(2);
  });

  it('survives a fragment cycle (rejected later by validation)', () => {
    const document = parse('query { me { ...A } } fragment A on User { id ...B } fragment B on User { ...A }');
    expect(measure(document).depth).toBe(2);
  });
});

describe('operationLimits options', () => {
  it('names every bad option', () => {
    const error = optionsError('operation-limits', () =>
      operationLimits({ maxDepth: 0, maxAliases: 1.5, maxRootFields: 5, maxCharacters: -1 }),
    );
    expect(error.issues.map((issue) => issue.field)).toEqual(['maxDepth', 'maxAliases', 'maxCharacters']);
  });
});
