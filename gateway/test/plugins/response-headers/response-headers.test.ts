import { HeaderMap } from '@apollo/server';
import { describe, expect, it } from 'vitest';
import { responseHeaders } from '../../../src/plugins/response-headers/index.js';
import { optionsError } from '../helpers/options-error.js';

async function send(plugin: ReturnType<typeof responseHeaders>, requestId: string): Promise<HeaderMap> {
  const headers = new HeaderMap();
  const listener = await plugin.apollo?.requestDidStart?.({} as never);
  await listener?.willSendResponse?.({ response: { http: { headers } }, contextValue: { requestId } } as never);
  return headers;
}

describe('responseHeaders', () => {
  it('sets static values and fills {uuid} and {requestId} per response', async () => {
    const plugin = responseHeaders({
      headers: [
        { name: 'X-Served-By', value: 'gateway' },
        { name: 'x-trace', value: '{uuid}' },
        { name: 'x-echo', value: 'req={requestId}' },
      ],
    });
    const first = await send(plugin, 'r-1');
    const second = await send(plugin, 'r-2');
    expect(first.get('x-served-by')).toBe('gateway');
    expect(first.get('x-echo')).toBe('req=r-1');
    expect(second.get('x-echo')).toBe('req=r-2');
    expect(first.get('x-trace')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(first.get('x-trace')).not.toBe(second.get('x-trace'));
  });

  it('names every bad header', () => {
    const error = optionsError('response-headers', () =>
      responseHeaders({
        headers: [
          { name: 'bad name', value: 'x' },
          { name: 'x-ok', value: 'a\r\nb' },
        ],
      }),
    );
    expect(error.issues.map((issue) => issue.field)).toEqual(['headers[0].name', 'headers[1].value']);
  });
});
