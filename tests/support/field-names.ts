import { parse, visit } from 'graphql';

/**
 * The field names (never response keys) in every document a recording subgraph received: a
 * field the gateway filtered out is sent as `address: __typename`, which asks for no address.
 */
export function fieldNamesIn(requests: readonly { readonly query: string }[]): string[] {
  const fields: string[] = [];
  for (const { query } of requests) {
    visit(parse(query), {
      Field(node) {
        fields.push(node.name.value);
      },
    });
  }
  return fields;
}
