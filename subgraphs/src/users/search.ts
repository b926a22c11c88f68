// Query.search: users, products and internal notes whose text contains the search text. The
// notes are the demo's restricted union member (InternalNote is @authenticated); products are
// answered as references, their fields resolved by the products subgraph.
import { products } from '../products/data.js';
import { users } from './data.js';

export interface InternalNoteRecord {
  readonly id: string;
  readonly body: string;
}

/** At most this many results, users first, then products, then notes (the order of the catalogues). */
export const MAX_SEARCH_RESULTS = 20;

/** One note per 25 users, derived from them (so the pinned user fingerprint stays the same). */
export const internalNotes: readonly InternalNoteRecord[] = users
  .filter((_user, index) => index % 25 === 0)
  .map((user, index) => ({
    id: `note-${index + 1}`,
    body: `Call ${user.name} back about ${user.orders[0]?.id ?? 'their account'}.`,
  }));

type SearchResult =
  | { readonly __typename: 'User'; readonly id: string }
  | { readonly __typename: 'Product'; readonly id: string }
  | ({ readonly __typename: 'InternalNote' } & InternalNoteRecord);

/** Case-insensitive; blank text finds nothing. */
export function search(text: string): SearchResult[] {
  const needle = text.trim().toLowerCase();
  if (needle === '') return [];
  const found: SearchResult[] = [];
  const add = (result: SearchResult) => found.length < MAX_SEARCH_RESULTS && found.push(result);
  for (const user of users) if (user.name.toLowerCase().includes(needle)) add({ ...user, __typename: 'User' });
  for (const product of products) {
    if (product.name.toLowerCase().includes(needle)) add({ __typename: 'Product', id: product.id });
  }
  for (const note of internalNotes)
    if (note.body.toLowerCase().includes(needle)) add({ ...note, __typename: 'InternalNote' });
  return found;
}
