import { describe, expect, it } from 'vitest';
import { failedFetchErrors } from '../src/fetch-error-paths.js';

const message = 'Subgraph "users" did not answer within 100 ms.';
const extensions = { code: 'GATEWAY_TIMEOUT' };

function paths(query: string | undefined, variables?: Record<string, unknown>) {
  return failedFetchErrors(query, variables, message, extensions).map((error) => error.path);
}

describe('failedFetchErrors: root fetches', () => {
  it('gives one error per root field, with message and extensions', () => {
    expect(failedFetchErrors('{ me { id } users { totalCount } }', undefined, message, extensions)).toEqual([
      { message, path: ['me'], extensions },
      { message, path: ['users'], extensions },
    ]);
  });

  it('uses aliases as the response keys', () => {
    expect(paths('query { first: user(id: "1") { id } second: user(id: "2") { id } me { id } }')).toEqual([
      ['first'],
      ['second'],
      ['me'],
    ]);
  });

  it('leaves out __typename', () => {
    expect(paths('{ __typename me { __typename id } }')).toEqual([['me']]);
  });

  it('names a field selected twice once', () => {
    expect(paths('{ me { id } me { name } }')).toEqual([['me']]);
  });

  it('includes fields selected through inline fragments on the root', () => {
    expect(paths('query Q { me { id } ... on Query { topProducts { id } } ... { me { name } } }')).toEqual([
      ['me'],
      ['topProducts'],
    ]);
  });

  it('reads the first operation of a document that starts with a fragment', () => {
    expect(paths('fragment U on User { id } query { me { ...U } }')).toEqual([['me']]);
  });

  it('handles mutations', () => {
    expect(
      paths('mutation Add($rating: Int!) { addReview(productId: "product-1", rating: $rating, comment: "x") { id } }'),
    ).toEqual([['addReview']]);
  });
});

describe('failedFetchErrors: entity fetches', () => {
  const entitiesQuery =
    'query ($representations: [_Any!]!) { _entities(representations: $representations) { ... on User { __typename reviews { id } name } } }';

  it('gives one error per representation and entity field, with _entities paths', () => {
    const representations = [
      { __typename: 'User', id: '1' },
      { __typename: 'User', id: '2' },
    ];

    expect(failedFetchErrors(entitiesQuery, { representations }, message, extensions)).toEqual([
      { message, path: ['_entities', 0, 'reviews'], extensions },
      { message, path: ['_entities', 0, 'name'], extensions },
      { message, path: ['_entities', 1, 'reviews'], extensions },
      { message, path: ['_entities', 1, 'name'], extensions },
    ]);
  });

  it('collects fields from every type condition and from aliases', () => {
    const query = `query ($representations: [_Any!]!) {
      _entities(representations: $representations) {
        ... on User { reviews { id } }
        ... on Product { reviews { id } productName: name ... on Product { price } }
      }
    }`;

    expect(paths(query, { representations: [{ __typename: 'Product', id: 'p1' }] })).toEqual([
      ['_entities', 0, 'reviews'],
      ['_entities', 0, 'productName'],
      ['_entities', 0, 'price'],
    ]);
  });

  it('gives a single error without a path when there are no representations', () => {
    expect(failedFetchErrors(entitiesQuery, { representations: [] }, message, extensions)).toEqual([
      { message, extensions },
    ]);
  });

  it('gives a single error without a path when representations are missing or not a list', () => {
    expect(failedFetchErrors(entitiesQuery, undefined, message, extensions)).toEqual([{ message, extensions }]);
    expect(failedFetchErrors(entitiesQuery, { representations: 'nope' }, message, extensions)).toEqual([
      { message, extensions },
    ]);
  });
});

describe('failedFetchErrors: queries it cannot read', () => {
  it.each([
    ['an unparsable query', '{ me { id '],
    ['an empty query', ''],
    ['no query', undefined],
    ['a document with only fragments', 'fragment U on User { id }'],
  ])('gives a single error without a path for %s', (_label, query) => {
    expect(failedFetchErrors(query, undefined, message, extensions)).toEqual([{ message, extensions }]);
  });

  it('gives a single error without a path when only __typename is selected', () => {
    expect(failedFetchErrors('{ __typename }', undefined, message, extensions)).toEqual([{ message, extensions }]);
  });
});

describe('failedFetchErrors with named fragments', () => {
  it('follows fragment spreads inside _entities', () => {
    const query =
      'query($representations: [_Any!]!) { _entities(representations: $representations) { ... on User { ...F } } } fragment F on User { name reviews { id } }';
    const errors = failedFetchErrors(query, { representations: [{}, {}] }, 'm', { code: 'C' });
    expect(errors.map((error) => error.path)).toEqual([
      ['_entities', 0, 'name'],
      ['_entities', 0, 'reviews'],
      ['_entities', 1, 'name'],
      ['_entities', 1, 'reviews'],
    ]);
  });

  it('does not loop on a fragment that spreads itself', () => {
    const query = '{ ...A } fragment A on Query { me ...A }';
    expect(failedFetchErrors(query, undefined, 'm', {}).map((error) => error.path)).toEqual([['me']]);
  });
});
