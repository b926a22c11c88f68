import { badUserInput } from '../errors.js';
import { type UserRecord, userPosition, users } from './data.js';

export const MAX_PAGE_SIZE = 100;

export interface UserConnection {
  edges: { cursor: string; node: UserRecord }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  totalCount: number;
}

/** Cursors are opaque to clients: base64url of the user id the page ended on. */
export const encodeCursor = (id: string): string => Buffer.from(id, 'utf8').toString('base64url');

/** Position just after the cursor's user; anything we did not issue is BAD_USER_INPUT. */
function startAfter(cursor: string): number {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  const position = userPosition(id);
  // Re-encoding rejects non-canonical input that Buffer's lenient decoder would accept.
  if (position === -1 || encodeCursor(id) !== cursor) {
    throw badUserInput('after is not a valid cursor', 'after');
  }
  return position + 1;
}

export function paginateUsers(first: number | null | undefined, after: string | null | undefined): UserConnection {
  const size = first ?? 10;
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE) {
    throw badUserInput(`first must be between 1 and ${MAX_PAGE_SIZE}`, 'first');
  }
  const start = after == null ? 0 : startAfter(after);
  const edges = users.slice(start, start + size).map((node) => ({ cursor: encodeCursor(node.id), node }));
  return {
    edges,
    pageInfo: {
      hasNextPage: start + size < users.length,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    totalCount: users.length,
  };
}
