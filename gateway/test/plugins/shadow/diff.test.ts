import { describe, expect, it } from 'vitest';
import { type DiffRules, differences } from '../../../src/plugins/shadow/index.js';

const NONE: DiffRules = { unordered: new Set(), ignored: new Set() };
const paths = (client: object, shadow: object, rules = NONE) => differences(client, shadow, rules).map((d) => d.path);

describe('what counts as a difference between two answers', () => {
  it('data field by field, named by response keys with list positions left out', () => {
    const client = {
      data: {
        topProducts: [
          { id: '1', name: 'a' },
          { id: '2', name: 'b' },
        ],
        me: { id: 'u' },
      },
    };
    const shadow = {
      data: {
        topProducts: [
          { id: '1', name: 'a' },
          { id: '2', name: 'B' },
        ],
        me: { id: 'u' },
      },
    };
    expect(paths(client, shadow)).toEqual(['topProducts.name']);
    expect(paths(client, client)).toEqual([]);
  });

  it('a missing field, a null, a list of another length, a whole answer without data', () => {
    expect(paths({ data: { a: 1, b: 2 } }, { data: { a: 1 } })).toEqual(['b']);
    expect(paths({ data: { a: { b: 1 } } }, { data: { a: null } })).toEqual(['a']);
    expect(paths({ data: { list: [1, 2] } }, { data: { list: [1] } })).toEqual(['list']);
    expect(paths({ data: { a: 1 } }, { data: null })).toEqual(['data']);
  });

  it('lists in order unless the operator declares the path unordered', () => {
    const client = { data: { reviews: [{ id: 1 }, { id: 2 }] } };
    const shadow = { data: { reviews: [{ id: 2 }, { id: 1 }] } };
    expect(paths(client, shadow)).toEqual(['reviews.id']);
    expect(paths(client, shadow, { ...NONE, unordered: new Set(['reviews']) })).toEqual([]);
    const other = { data: { reviews: [{ id: 2 }, { id: 3 }] } };
    expect(paths(client, other, { ...NONE, unordered: new Set(['reviews']) })).toEqual(['reviews']);
  });

  it('leaves out ignored paths, extensions and error messages; compares errors by code and path', () => {
    const client = {
      data: { product: { id: '1', fetchedAt: 1 } },
      errors: [{ message: 'one text', path: ['product', 'reviews', 0], extensions: { code: 'SUBREQUEST_HTTP_ERROR' } }],
      extensions: { tracing: { duration: 1 } },
    };
    const shadow = {
      data: { product: { id: '1', fetchedAt: 2 } },
      errors: [{ message: 'another', path: ['product', 'reviews', 3], extensions: { code: 'SUBREQUEST_HTTP_ERROR' } }],
      extensions: { tracing: { duration: 9 } },
    };
    expect(paths(client, shadow, { ...NONE, ignored: new Set(['product.fetchedAt']) })).toEqual([]);
    expect(
      paths(
        client,
        { ...shadow, errors: [{ message: 'x', extensions: { code: 'GATEWAY_TIMEOUT' } }] },
        {
          ...NONE,
          ignored: new Set(['product.fetchedAt']),
        },
      ),
    ).toEqual(['errors.GATEWAY_TIMEOUT', 'errors.SUBREQUEST_HTTP_ERROR@product.reviews']);
  });

  it('keeps both values of each difference, for SHADOW_LOG_VALUES', () => {
    expect(differences({ data: { a: 1 } }, { data: { a: 2 } }, NONE)).toEqual([{ path: 'a', client: 1, shadow: 2 }]);
  });
});
