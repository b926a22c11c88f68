import type { IncomingHttpHeaders } from 'node:http';
import { HeaderMap } from '@apollo/server';
import { describe, expect, it } from 'vitest';
import { createContext } from '../../../src/context.js';
import type { GatewayContext } from '../../../src/contract/index.js';
import { headerRules } from '../../../src/plugins/header-rules/index.js';
import { optionsError } from '../helpers/options-error.js';

function contextWith(headers: IncomingHttpHeaders, appended: [string, string][] = []): GatewayContext {
  return createContext({
    requestId: 'r1',
    method: 'POST',
    url: '/graphql',
    headers,
    ip: '127.0.0.1',
    startedAt: 0n,
    appendResponseHeader: (name, value) => void appended.push([name, value]),
  });
}

function outgoing(plugin: ReturnType<typeof headerRules>, subgraph: string, incoming: IncomingHttpHeaders) {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-request-id': 'r1' };
  plugin.onSubgraphRequest?.({ subgraph, headers, context: contextWith(incoming), query: '{ me { id } }' });
  return headers;
}

describe('headerRules: subgraph requests', () => {
  it('propagates by name, with rename and default', () => {
    const plugin = headerRules({
      all: [
        { propagate: { named: 'x-tenant' } },
        { propagate: { named: 'x-locale', rename: 'accept-language-override' } },
        { propagate: { named: 'x-region', default: 'eu' } },
      ],
    });
    expect(outgoing(plugin, 'users', { 'x-tenant': 'acme', 'x-locale': 'fr' })).toEqual({
      'content-type': 'application/json',
      'x-request-id': 'r1',
      'x-tenant': 'acme',
      'accept-language-override': 'fr',
      'x-region': 'eu',
    });
  });

  it('propagates by regex but never hop-by-hop or body headers', () => {
    const plugin = headerRules({ all: [{ propagate: { matching: '.*' } }] });
    const headers = outgoing(plugin, 'users', {
      'x-feature': 'on',
      connection: 'keep-alive',
      'transfer-encoding': 'chunked',
      'content-length': '12',
      host: 'evil',
      'accept-encoding': 'gzip',
    });
    expect(headers).toEqual({ 'content-type': 'application/json', 'x-request-id': 'r1', 'x-feature': 'on' });
  });

  it('applies per-subgraph rules after the rules for all, in order', () => {
    const plugin = headerRules({
      all: [{ insert: { name: 'source', value: 'gateway' } }],
      subgraphs: {
        products: [{ insert: { name: 'source', value: 'gateway-products' } }, { remove: { named: 'x-request-id' } }],
      },
    });
    expect(outgoing(plugin, 'users', {}).source).toBe('gateway');
    const products = outgoing(plugin, 'products', {});
    expect(products.source).toBe('gateway-products');
    expect(products['x-request-id']).toBeUndefined();
  });

  it('removes by regex', () => {
    const plugin = headerRules({
      all: [{ propagate: { matching: '^x-' } }, { remove: { matching: '^x-debug' } }],
    });
    expect(outgoing(plugin, 'users', { 'x-debug-trace': '1', 'x-keep': '2' })).toMatchObject({ 'x-keep': '2' });
    expect(outgoing(plugin, 'users', { 'x-debug-trace': '1' })['x-debug-trace']).toBeUndefined();
  });

  it('names every bad rule', () => {
    const error = optionsError('header-rules', () =>
      headerRules({
        all: [
          { propagate: { matching: '(' } },
          { insert: { name: 'content-length', value: '1' } },
          { bogus: true } as never,
        ],
        response: [{ name: 'x-a', merge: 'most-restrictive' }],
      }),
    );
    expect(error.issues.map((issue) => issue.field)).toEqual(['all[0]', 'all[1]', 'all[2]', 'response[0].merge']);
  });
});

describe('headerRules: subgraph response headers back to the client', () => {
  async function respond(
    plugin: ReturnType<typeof headerRules>,
    responses: { subgraph: string; headers: IncomingHttpHeaders }[],
  ): Promise<[string, string][]> {
    const appended: [string, string][] = [];
    const headers = new HeaderMap([['cache-control', 'no-store']]);
    const context = contextWith({}, appended);
    for (const response of responses) plugin.onSubgraphResponse?.({ ...response, context, result: { data: {} } });
    const listener = await plugin.apollo?.requestDidStart?.({ contextValue: context } as never);
    await listener?.willSendResponse?.({ contextValue: context, response: { http: { headers } } } as never);
    // Single-valued headers replace Apollo Server's own; repeated ones go through the adapter.
    return [
      ...[...headers].filter(([name]) => name !== 'cache-control' || headers.get(name) !== 'no-store'),
      ...appended,
    ];
  }

  it('merges cache-control to the most restrictive and appends every set-cookie', async () => {
    const plugin = headerRules({
      response: [{ name: 'cache-control' }, { name: 'set-cookie' }, { name: 'x-version' }],
    });
    const appended = await respond(plugin, [
      {
        subgraph: 'users',
        headers: { 'cache-control': 'public, max-age=60', 'set-cookie': ['a=1', 'b=2'], 'x-version': '1' },
      },
      {
        subgraph: 'products',
        // undici gives a single set-cookie as a string, not a list.
        headers: {
          'cache-control': 'private, max-age=30',
          'set-cookie': 'c=3',
          'x-version': '2',
        } as unknown as IncomingHttpHeaders,
      },
    ]);
    expect(appended).toEqual([
      ['cache-control', 'private, max-age=30'],
      ['x-version', '2'],
      ['set-cookie', 'a=1'],
      ['set-cookie', 'b=2'],
      ['set-cookie', 'c=3'],
    ]);
  });

  it('passes nothing back when no subgraph sent the header', async () => {
    const plugin = headerRules({ response: [{ name: 'cache-control' }] });
    expect(await respond(plugin, [{ subgraph: 'users', headers: {} }])).toEqual([]);
  });
});
