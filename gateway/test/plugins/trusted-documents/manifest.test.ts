import { readFileSync } from 'node:fs';
import { ROOT } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';
import { parseManifest, type TrustedManifest } from '../../../src/plugins/trusted-documents/manifest.js';
import { apolloManifest, sha } from './fixtures.js';

const GET_USER = 'query GetUser($id: ID!) { user(id: $id) { id name } }';
const ADD_REVIEW =
  'mutation AddReview($productId: ID!, $rating: Int!, $comment: String!) { addReview(productId: $productId, rating: $rating, comment: $comment) { id } }';

function valid(text: string): TrustedManifest {
  const result = parseManifest(text);
  if (!result.ok) throw new Error(`expected a valid manifest: ${JSON.stringify(result.issues)}`);
  return result.manifest;
}

function issues(text: string) {
  const result = parseManifest(text);
  if (result.ok) throw new Error('expected an invalid manifest');
  return result.issues;
}

describe('parseManifest: the Apollo persisted query manifest', () => {
  const manifest = valid(apolloManifest([GET_USER, ADD_REVIEW]));

  it('reads every operation, found by its id (the sha256 of its body)', () => {
    expect(manifest.format).toBe('apollo');
    expect(manifest.size).toBe(2);
    expect(manifest.documentFor(sha(GET_USER))).toBe(GET_USER);
    expect(manifest.documentFor(`sha256:${sha(ADD_REVIEW)}`)).toBe(ADD_REVIEW);
    expect(manifest.documentFor(sha('{ me { id } }'))).toBeUndefined();
    expect(manifest.documentFor('GetUser')).toBeUndefined();
  });

  it('contains its bodies byte-for-byte, and with other whitespace, commas or comments', () => {
    expect(manifest.contains(GET_USER)).toBe(true);
    expect(
      manifest.contains('query GetUser($id: ID!) {\n  user(id: $id) {\n    id,\n    name # the name\n  }\n}\n'),
    ).toBe(true);
  });

  it('does not contain another operation, a renamed one, or one with another string value', () => {
    expect(manifest.contains('{ me { id } }')).toBe(false);
    expect(manifest.contains(GET_USER.replace('GetUser', 'Health'))).toBe(false);
    expect(manifest.contains(`${GET_USER} query Other { me { id } }`)).toBe(false);
    const withString = valid(apolloManifest(['{ user(id: "a b") { id } }']));
    expect(withString.contains('{ user(id: "a  b") { id } }')).toBe(false);
    expect(withString.contains('{ user(id: a b) { id } }')).toBe(false);
    expect(withString.contains('{ user(id:   "a b") { id } }')).toBe(true);
  });

  it('does not contain text that does not lex, or text longer (in tokens) than any entry', () => {
    expect(manifest.contains('query GetUser("')).toBe(false);
    expect(manifest.contains(`${GET_USER}${' { x }'.repeat(10_000)}`)).toBe(false);
  });

  it('reports every bad operation, named by position and name, without its document text', () => {
    const secretBody = 'query Broken { user(id: "do-not-log-me") { id ';
    const found = issues(
      JSON.stringify({
        format: 'apollo-persisted-query-manifest',
        version: 1,
        operations: [
          { id: sha(GET_USER), name: 'GetUser', type: 'query', body: GET_USER },
          { id: sha(GET_USER), name: 'Tampered', type: 'query', body: ADD_REVIEW },
          { id: sha(secretBody), name: 'Broken', type: 'query', body: secretBody },
          { name: 'NoId', type: 'query', body: GET_USER },
          { id: 'x', name: 'NoBody', type: 'query' },
        ],
      }),
    );
    expect(found.map((issue) => issue.field)).toEqual([
      'manifest operations[1] ("Tampered")',
      'manifest operations[2] ("Broken")',
      'manifest operations[3] ("NoId")',
      'manifest operations[4] ("NoBody")',
    ]);
    expect(found[0]?.message).toBe(`id is not the sha256 of its body (that is ${sha(ADD_REVIEW)})`);
    expect(found[1]?.message).toMatch(/^body does not parse: Syntax Error/);
    expect(found[2]?.message).toMatch(/needs an "id"/);
    expect(found[3]?.message).toMatch(/needs a "body"/);
    expect(JSON.stringify(found)).not.toContain('do-not-log-me');
  });

  it('rejects another format or version, missing operations, and an empty list', () => {
    expect(issues(JSON.stringify({ format: 'apollo-persisted-query-manifest', version: 2, operations: [] }))).toEqual([
      { field: 'manifest version', message: 'expected 1' },
    ]);
    expect(issues(JSON.stringify({ format: 'other', version: 1 })).map((issue) => issue.field)).toEqual([
      'manifest format',
      'manifest operations',
    ]);
    expect(issues(apolloManifest([]))).toEqual([{ field: 'manifest', message: 'has no operations' }]);
  });

  it("accepts the README's example manifest", () => {
    const example = valid(readFileSync(`${ROOT}docs/examples/trusted-documents/manifest.json`, 'utf8'));
    expect([example.format, example.size]).toEqual(['apollo', 4]);
  });

  it('rejects text that is not a JSON object', () => {
    expect(issues('{"format": ')[0]?.message).toMatch(/^is not valid JSON/);
    // V8 quotes the text around the error; a manifest's text is documents.
    expect(issues('{"format": query leakedName }')[0]).toEqual({ field: 'manifest', message: 'is not valid JSON' });
    expect(issues('{"a": "b" "c"}')[0]?.message).toBe('is not valid JSON (at position 10 (line 1 column 11))');
    expect(issues('[]')).toEqual([{ field: 'manifest', message: 'must be a JSON object' }]);
  });
});

describe('parseManifest: the Relay / GraphQL Codegen map', () => {
  it('finds documents by their own ids, and by the sha256 of their bodies', () => {
    const manifest = valid(JSON.stringify({ 'user-query-1': GET_USER, abc: ADD_REVIEW }));
    expect(manifest.format).toBe('map');
    expect(manifest.size).toBe(2);
    expect(manifest.documentFor('user-query-1')).toBe(GET_USER);
    expect(manifest.documentFor(sha(ADD_REVIEW))).toBe(ADD_REVIEW);
    expect(manifest.documentFor('user-query-2')).toBeUndefined();
    expect(manifest.contains(ADD_REVIEW)).toBe(true);
  });

  it("names where a body does not parse, without quoting the body's tokens", () => {
    const [issue] = issues(JSON.stringify({ bad: 'query Q leakedName { me { id } }' }));
    expect(issue?.message).toBe('body does not parse: Syntax Error: Expected "{", found Name. (line 1, column 9)');
    expect(issue?.message).not.toContain('leakedName');
  });

  it('does not require ids to be hashes, but reports entries that are not documents', () => {
    const found = issues(JSON.stringify({ ok: GET_USER, empty: '', number: 3, broken: '{ user(' }));
    expect(found.map((issue) => issue.field)).toEqual(['manifest "empty"', 'manifest "number"', 'manifest "broken"']);
    expect(found[1]?.message).toContain('an Apollo manifest needs "format": "apollo-persisted-query-manifest"');
  });
});
