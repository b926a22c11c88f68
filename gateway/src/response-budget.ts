import type { FormattedExecutionResult } from 'graphql';
import type { ResponseBudget as RequestResponseBudget } from './contract/index.js';
import { ClientErrorCode } from './error-registry.js';

/**
 * How many bytes of subgraph answers one client request may still merge into its
 * response (MAX_RESPONSE_BYTES). The data source takes from it as bodies arrive; once it
 * is spent, later fetches of that request are not sent, and the response is replaced by
 * one RESPONSE_TOO_LARGE error (see plugins/response-size-limit/). A 184-byte query
 * can otherwise make the gateway build (and its client download) megabytes.
 */
export class ResponseBudget implements RequestResponseBudget {
  readonly maxBytes: number;
  #used = 0;
  #exceeded = false;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  /** Bytes left before the budget is spent. */
  get remaining(): number {
    return Math.max(0, this.maxBytes - this.#used);
  }

  get exceeded(): boolean {
    return this.#exceeded;
  }

  /** Marks the budget spent: the request's answer would exceed it. */
  exceed(): void {
    this.#exceeded = true;
  }

  /** Counts `bytes`; false (and spent from now on) when they do not fit. */
  take(bytes: number): boolean {
    if (this.#exceeded || bytes > this.remaining) {
      this.#exceeded = true;
      return false;
    }
    this.#used += bytes;
    return true;
  }
}

/** The answer that replaces one over MAX_RESPONSE_BYTES (a subscription's event too). */
export function responseTooLarge(maxBytes: number): FormattedExecutionResult {
  return {
    data: null,
    errors: [
      {
        message: `The response is larger than the limit of ${maxBytes} bytes; ask for less (paginate).`,
        extensions: { code: ClientErrorCode.RESPONSE_TOO_LARGE, maxResponseBytes: maxBytes },
      },
    ],
  };
}
