import type { GraphQLFormattedError } from 'graphql';
import { ClientErrorCode, codeExtensions, type LegacyCode } from '../error-registry.js';

/**
 * Why a live subscription ended other than by completing: the errors of its last event
 * (`next` with `errors`, then `complete`, on every transport).
 */
export class SubscriptionEnd extends Error {
  readonly errors: readonly GraphQLFormattedError[];

  private constructor(errors: readonly GraphQLFormattedError[]) {
    super(errors[0]?.message ?? 'subscription ended');
    this.errors = errors;
  }

  static of(code: ClientErrorCode, message: string, legacyCode?: LegacyCode): SubscriptionEnd {
    return new SubscriptionEnd([{ message, extensions: codeExtensions(code, legacyCode) }]);
  }

  /** The client did not read its events as fast as they came. */
  static slowConsumer(maxBufferedEvents: number): SubscriptionEnd {
    return SubscriptionEnd.of(
      ClientErrorCode.SUBSCRIPTION_SLOW_CONSUMER,
      `More than ${maxBufferedEvents} events were waiting for this client; the subscription was ended. Subscribe again.`,
    );
  }

  /** The subgraph answered the subscription with errors, closed its socket, or could not be reached. */
  static fromSubgraph(subgraph: string, reason: unknown): SubscriptionEnd {
    if (Array.isArray(reason) && reason.length > 0) {
      return new SubscriptionEnd(
        (reason as GraphQLFormattedError[]).map((error) => ({
          message: String(error?.message ?? 'subgraph error'),
          extensions: { ...error?.extensions, serviceName: subgraph },
        })),
      );
    }
    return new SubscriptionEnd([
      {
        message: `The subgraph "${subgraph}" ended the subscription${closeCode(reason)}. Subscribe again.`,
        extensions: {
          ...codeExtensions(ClientErrorCode.WEBSOCKET_CLOSE_ERROR, 'SUBSCRIPTION_SOURCE_CLOSED'),
          serviceName: subgraph,
        },
      },
    ]);
  }
}

/** A WebSocket close code says what happened (1006: the connection dropped); its reason is the subgraph's text, not shown. */
function closeCode(reason: unknown): string {
  const code = (reason as { code?: unknown } | undefined)?.code;
  return typeof code === 'number' ? ` (WebSocket close ${code})` : '';
}
