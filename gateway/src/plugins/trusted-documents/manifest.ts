import { createHash } from 'node:crypto';
import { parse } from 'graphql';
import type { ConfigIssue } from '../../plugin-sdk/index.js';
import { tokenKey } from './token-key.js';

/** `apollo`: what `@apollo/generate-persisted-query-manifest` writes; `map`: Relay / GraphQL Codegen `{ id: document }`. */
export type ManifestFormat = 'apollo' | 'map';

export const APOLLO_MANIFEST_FORMAT = 'apollo-persisted-query-manifest';

/** A validated manifest: every lookup a request needs is one Map get. */
export interface TrustedManifest {
  readonly format: ManifestFormat;
  /** Operations (entries) in the manifest. */
  readonly size: number;
  /** The document for an id a client sent: a manifest id, or a body's sha256 (hex, or `sha256:<hex>`). */
  documentFor(id: string): string | undefined;
  /**
   * Whether a full document is in the manifest: byte-for-byte (one Map get), or else
   * with the same tokens (lexed once, capped at the longest entry's token count).
   */
  contains(query: string): boolean;
}

export type ManifestResult = { ok: true; manifest: TrustedManifest } | { ok: false; issues: ConfigIssue[] };

interface Entry {
  /** Where the entry is, for issues: `operations[2] ("GetUser")` or `"<id>"`. No document text. */
  readonly where: string;
  readonly id: unknown;
  readonly body: unknown;
}

/**
 * Parses and validates a manifest's text. Reports every bad entry at once, each named by
 * its position and id or name, never by its document text.
 */
export function parseManifest(text: string): ManifestResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    // V8's message quotes the text around the error (documents): keep only where it is.
    const position = (error as Error).message.match(/position \d+(?: \(line \d+ column \d+\))?/)?.[0];
    return fail([{ field: 'manifest', message: `is not valid JSON${position ? ` (at ${position})` : ''}` }]);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return fail([{ field: 'manifest', message: 'must be a JSON object' }]);
  }
  const issues: ConfigIssue[] = [];
  const record = json as Record<string, unknown>;
  const format: ManifestFormat = 'format' in record ? 'apollo' : 'map';
  const entries = format === 'apollo' ? apolloEntries(record, issues) : mapEntries(record);
  if (issues.length > 0) return fail(issues);
  if (entries.length === 0) {
    // An empty manifest in enforce mode refuses every operation: far likelier a truncated write than intended.
    return fail([{ field: 'manifest', message: 'has no operations' }]);
  }

  const byId = new Map<string, string>();
  const byHash = new Map<string, string>();
  const bodies = new Set<string>();
  const byTokens = new Set<string>();
  let maxTokens = 0;
  for (const entry of entries) {
    const before = issues.length;
    if (typeof entry.id !== 'string' || entry.id === '') issues.push(at(entry, 'needs an "id" (a non-empty string)'));
    if (typeof entry.body !== 'string' || entry.body.trim() === '') {
      issues.push(
        at(
          entry,
          format === 'apollo'
            ? 'needs a "body" (a non-empty string holding a GraphQL document)'
            : `must map to a GraphQL document (a non-empty string); an Apollo manifest needs "format": "${APOLLO_MANIFEST_FORMAT}"`,
        ),
      );
    }
    if (issues.length > before) continue;
    const id = entry.id as string;
    const body = entry.body as string;
    try {
      parse(body, { noLocation: true });
    } catch (error) {
      issues.push(at(entry, `body does not parse: ${withoutTokens(error)}`));
      continue;
    }
    const hash = sha256(body);
    if (format === 'apollo' && id !== hash) {
      issues.push(at(entry, `id is not the sha256 of its body (that is ${hash})`));
      continue;
    }
    const known = byId.get(id);
    if (known !== undefined && known !== body) {
      issues.push(at(entry, 'repeats an earlier id with a different body'));
      continue;
    }
    byId.set(id, body);
    byHash.set(hash, body);
    bodies.add(body);
    const tokens = tokenKey(body);
    if (tokens) {
      byTokens.add(tokens.key);
      maxTokens = Math.max(maxTokens, tokens.tokens);
    }
  }
  if (issues.length > 0) return fail(issues);

  return {
    ok: true,
    manifest: {
      format,
      size: entries.length,
      documentFor(id) {
        // Manifest ids first (a Relay id could in theory look like another entry's hash).
        return byId.get(id) ?? byHash.get(id.startsWith('sha256:') ? id.slice(7) : id);
      },
      contains(query) {
        if (bodies.has(query)) return true;
        const tokens = tokenKey(query, maxTokens);
        return tokens !== undefined && byTokens.has(tokens.key);
      },
    },
  };
}

function apolloEntries(record: Record<string, unknown>, issues: ConfigIssue[]): Entry[] {
  if (record.format !== APOLLO_MANIFEST_FORMAT) {
    issues.push({ field: 'manifest format', message: `expected "${APOLLO_MANIFEST_FORMAT}"` });
  }
  if (record.version !== 1) issues.push({ field: 'manifest version', message: 'expected 1' });
  if (!Array.isArray(record.operations)) {
    issues.push({ field: 'manifest operations', message: 'must be an array of { id, name, type, body }' });
    return [];
  }
  return record.operations.map((operation: unknown, index) => {
    const entry = (typeof operation === 'object' && operation !== null ? operation : {}) as Record<string, unknown>;
    const name = typeof entry.name === 'string' ? ` (${JSON.stringify(entry.name)})` : '';
    return { where: `operations[${index}]${name}`, id: entry.id, body: entry.body };
  });
}

function mapEntries(record: Record<string, unknown>): Entry[] {
  return Object.entries(record).map(([id, body]) => ({ where: JSON.stringify(shorten(id)), id, body }));
}

function at(entry: Entry, message: string): ConfigIssue {
  return { field: `manifest ${entry.where}`, message };
}

function fail(issues: ConfigIssue[]): ManifestResult {
  return { ok: false, issues };
}

/**
 * graphql-js's syntax message and position, with quoted token text cut out
 * (`Unexpected Name "x"`): issues are logged, and name entries, never their text.
 */
function withoutTokens(error: unknown): string {
  const message = withoutQuotes((error as Error).message);
  const location = (error as { locations?: readonly { line: number; column: number }[] }).locations?.[0];
  return location ? `${message} (line ${location.line}, column ${location.column})` : message;
}

/** graphql-js names the token it stopped at with its text (`Name "x"`); punctuators (`"{"`) are kept. */
function withoutQuotes(message: string): string {
  return message.replace(/\b(Name|String|BlockString|Int|Float) "(?:[^"\\]|\\.)*"/g, '$1');
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Ids are names, not documents; a very long key is cut so a misplaced document cannot fill the log. */
function shorten(id: string): string {
  return id.length > 80 ? `${id.slice(0, 77)}...` : id;
}
