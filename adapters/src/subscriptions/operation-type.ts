import { Lexer, Source, type Token, TokenKind } from 'graphql';

type OperationType = 'query' | 'mutation' | 'subscription';
const OPERATION_KEYWORDS = new Set<string>(['query', 'mutation', 'subscription']);
const OPENING = new Set<TokenKind>([TokenKind.BRACE_L, TokenKind.PAREN_L, TokenKind.BRACKET_L]);
const CLOSING = new Set<TokenKind>([TokenKind.BRACE_R, TokenKind.PAREN_R, TokenKind.BRACKET_R]);

/**
 * The type of the operation a request selects (`operationName`, else the only one), read from
 * the document's tokens without parsing it: enough to route a request before Apollo Server
 * parses, validates and runs it. Undefined when the document does not lex or the selection is
 * ambiguous or unknown; the request then goes to plain HTTP, which answers the error.
 */
export function selectedOperationType(query: string, operationName?: string | null): OperationType | undefined {
  const operations: { type: OperationType; name: string | undefined }[] = [];
  const lexer = new Lexer(new Source(query));
  // Brackets of any kind nest; a definition begins at depth 0, first or after a selection set closes.
  let depth = 0;
  let atDefinition = true;
  try {
    for (let token: Token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (OPENING.has(token.kind)) {
        if (depth === 0 && atDefinition && token.kind === TokenKind.BRACE_L) {
          operations.push({ type: 'query', name: undefined });
          atDefinition = false;
        }
        depth += 1;
      } else if (CLOSING.has(token.kind)) {
        depth -= 1;
        if (depth === 0 && token.kind === TokenKind.BRACE_R) atDefinition = true;
      } else if (token.kind === TokenKind.NAME && depth === 0 && atDefinition) {
        atDefinition = false;
        if (OPERATION_KEYWORDS.has(token.value)) {
          const next = lexer.lookahead();
          operations.push({
            type: token.value as OperationType,
            name: next.kind === TokenKind.NAME ? next.value : undefined,
          });
        }
      }
    }
  } catch {
    return undefined;
  }
  if (operationName !== undefined && operationName !== null) {
    return operations.find((operation) => operation.name === operationName)?.type;
  }
  return operations.length === 1 ? operations[0]?.type : undefined;
}
