import { GatewayError, GatewayErrorCode } from '../errors.js';
import { type FetchTextOptions, fetchText, pollUrl } from '../watch/poll-url.js';
import type { SupergraphSource } from './source.js';

/**
 * SUPERGRAPH_URL: a server holding the supergraph SDL (an artifact store, a schema
 * registry), polled with `If-None-Match` so an unchanged supergraph costs a 304.
 */
export function urlSource(options: FetchTextOptions): SupergraphSource {
  let initial: { text: string; etag?: string } | undefined;
  return {
    kind: 'url',
    description: 'from SUPERGRAPH_URL',
    async read() {
      try {
        const fetched = await fetchText(options);
        // Without an ETag sent, only a 200 comes back; the guard is for the type.
        if (!fetched.modified) throw new Error('unexpected 304');
        initial = { text: fetched.text, ...(fetched.etag ? { etag: fetched.etag } : {}) };
        return fetched.text;
      } catch (error) {
        throw new GatewayError(
          GatewayErrorCode.SUPERGRAPH_UNREADABLE,
          `cannot fetch the supergraph from SUPERGRAPH_URL: ${(error as Error).message}`,
          { cause: error },
        );
      }
    },
    watch(intervalMs, clock, { onText, onError }) {
      return pollUrl({ ...options, intervalMs, initial, onChange: onText, onError, ...(clock ? { clock } : {}) });
    },
  };
}
