import type { GatewayPlugin } from '../../plugin-sdk/index.js';
import { responseTooLarge } from '../../plugin-sdk/index.js';

/**
 * Answers a request whose subgraph answers add up to more than its response budget
 * (MAX_RESPONSE_BYTES, counted by the data source as bodies arrive) with one
 * RESPONSE_TOO_LARGE error and `data: null`, instead of a truncated or huge answer.
 * Always on. The data source stops sending that request's fetches once the budget is spent.
 */
export function responseSizeLimit(): GatewayPlugin {
  return {
    name: 'response-size-limit',
    apollo: {
      async requestDidStart() {
        return {
          async willSendResponse({ response, contextValue }) {
            const budget = contextValue.responseBudget;
            if (!budget.exceeded || response.body.kind !== 'single') return;
            response.body.singleResult = responseTooLarge(budget.maxBytes);
          },
        };
      },
    },
  };
}
