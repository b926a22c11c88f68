import { Lexer, Source, TokenKind } from 'graphql';

/**
 * A document's tokens (kind and value), joined: two texts get the same key exactly when
 * they differ only in ignored characters (whitespace, comments, commas), i.e. when they
 * parse to the same document. Used for full documents that are not byte-for-byte in the
 * manifest, so a client's formatter cannot turn a trusted operation into a refused one.
 *
 * Lexing only, no parse; `maxTokens` stops early (undefined), so a large text that
 * cannot match any manifest entry costs at most that many tokens. Text that does not
 * lex gets undefined too.
 */
export function tokenKey(
  text: string,
  maxTokens = Number.POSITIVE_INFINITY,
): { key: string; tokens: number } | undefined {
  const parts: string[] = [];
  try {
    const lexer = new Lexer(new Source(text));
    // `advance` skips comments; commas are never tokens.
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (parts.length >= maxTokens) return undefined;
      // Values are JSON-quoted so `"a b"` (one string) and `a b` (two names) cannot collide.
      parts.push(token.value === undefined ? token.kind : `${token.kind}${JSON.stringify(token.value)}`);
    }
  } catch {
    return undefined;
  }
  return { key: parts.join(' '), tokens: parts.length };
}
