import { addReview, openStream, subgraphUrlEnv, untilLive } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';
import { gatewayForBlock, subgraphsForFile } from '../support/lifecycle.js';

// Class: a subgraph limit that one path forgets. An operator's SUBGRAPH_<NAME>_* override bounds
// that subgraph's answers over HTTP; its subscription events came through the global values, so
// a subgraph limited to 1 KB could push a 2 KB event (or take the global timeout to connect).

const subgraphs = subgraphsForFile();
const REVIEW_ADDED = 'subscription { reviewAdded(productId: "product-3") { comment } }';

describe("a subgraph's own size limit bounds its subscription events", () => {
  const gateway = gatewayForBlock('fastify', () => ({
    ...subgraphUrlEnv(subgraphs()),
    SUBGRAPH_MAX_RESPONSE_BYTES: '10mb',
    SUBGRAPH_REVIEWS_MAX_RESPONSE_BYTES: '1kb',
  }));

  it('an event over SUBGRAPH_REVIEWS_MAX_RESPONSE_BYTES ends the subscription (WEBSOCKET_CLOSE_ERROR)', async () => {
    const stream = openStream('ws', gateway().url, { query: REVIEW_ADDED });
    try {
      await untilLive(subgraphs().reviews.url, [stream], 'product-3');
      await addReview(subgraphs().reviews.url, { productId: 'product-3', rating: 5, comment: 'x'.repeat(1900) });
      expect(await stream.ended).toEqual({ how: 'complete' });
      const last = stream.events.at(-1);
      expect(last?.errors?.map((error) => error.extensions?.code)).toEqual(['WEBSOCKET_CLOSE_ERROR']);
      expect(JSON.stringify(stream.events)).not.toContain('x'.repeat(1900));
    } finally {
      stream.stop();
    }
  });
});
