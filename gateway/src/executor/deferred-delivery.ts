import type { ApolloServerPlugin } from '@apollo/server';
import type { GraphQLFormattedError } from 'graphql';
import type { GatewayContext } from '../contract/index.js';
import { ClientErrorCode } from '../error-registry.js';
import { httpError } from '../http-error.js';
import { responseTooLarge } from '../response-budget.js';
import { acceptsDefer } from '../transport-choice.js';
import type { SubsequentPart } from './deferred-run.js';

/**
 * How an operation with @defer reaches the client. Apollo Server writes a multipart body
 * (`multipart/mixed; boundary="-"; deferSpec=20220824`: Apollo Server's framing of the Router's
 * 2022-08-24 format; the Router itself writes `boundary="graphql"`) for an
 * answer whose body is `incremental`, but hands a gateway's executor result over as a single
 * one. So the executor answers the initial part and leaves the later parts on the request's
 * context, and this plugin's `willSendResponse` (after Apollo Server formatted the initial
 * part's errors and set its status) turns the body incremental with them.
 */
const PARTS = Symbol('deferred parts');
const DEFER_SPEC_ACCEPT = 'multipart/mixed;deferSpec=20220824';

type Parts = AsyncGenerator<SubsequentPart, void, undefined>;

/**
 * Whether an Accept header takes the 2022-08-24 incremental format (Apollo Client 4's
 * Defer20220824Handler and Apollo Router's; urql's plain `multipart/mixed` too): the transport
 * choice's rule (transport-choice.ts).
 */
export function acceptsDeferSpec(accept: string | null | undefined): boolean {
  return acceptsDefer(accept);
}

/** Apollo Router's answer (and Apollo Server's) to @defer from a client that cannot read multipart: 406. */
export function deferNotAccepted() {
  return httpError(
    ClientErrorCode.NOT_ACCEPTABLE,
    "the operation uses @defer, but the request does not accept multipart/mixed answers; send 'Accept: multipart/mixed;deferSpec=20220824, application/json'",
  );
}

export function leaveDeferredParts(context: GatewayContext, parts: Parts): void {
  (context as { [PARTS]?: Parts })[PARTS] = parts;
}

/**
 * For a plugin's `aroundExecute`: an operation with @defer answers its initial part, and the
 * later parts come through the context. This maps each of them (authorization patches each
 * deferred block's data as it patches an answer).
 */
export function mapDeferredParts(context: GatewayContext, map: (part: SubsequentPart) => SubsequentPart): void {
  const holder = context as { [PARTS]?: Parts };
  const parts = holder[PARTS];
  if (!parts) return;
  holder[PARTS] = (async function* mapped() {
    try {
      for await (const part of parts) yield map(part);
    } finally {
      await parts.return();
    }
  })();
}

/**
 * Whether a request's document may hold @defer, from its text (a comment or string naming it
 * only answers yes where no would be right). Inbound deduplication leaves those alone: their
 * later parts belong to the request that ran them.
 */
export function mayDefer(source: string | undefined): boolean {
  return source === undefined || source.includes('@defer');
}

/** Apollo Server's side: the incremental body, each later part's errors formatted as the initial part's were. */
export function deferredDeliveryPlugin(
  formatError: (formatted: GraphQLFormattedError) => GraphQLFormattedError,
): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ request, response, contextValue }) {
          const holder = contextValue as { [PARTS]?: Parts };
          const parts = holder[PARTS];
          if (!parts) return;
          delete holder[PARTS];
          // An answer replaced by an error (response budget spent, a plugin's refusal): the rest is not sent.
          if (response.body.kind !== 'single' || contextValue.responseBudget.exceeded) {
            void parts.return();
            return;
          }
          // The executor found the Accept takes this format; Apollo Server's own check knows only the
          // spelled-out parameter (a plain `multipart/mixed`, urql's, it would refuse with 406).
          request.http?.headers.set('accept', DEFER_SPEC_ACCEPT);
          response.body = {
            kind: 'incremental',
            initialResult: { ...response.body.singleResult, hasNext: true },
            subsequentResults: formatted(parts, contextValue, formatError),
          };
        },
      };
    },
  };
}

async function* formatted(
  parts: Parts,
  context: GatewayContext,
  formatError: (formatted: GraphQLFormattedError) => GraphQLFormattedError,
) {
  try {
    for await (const part of parts) {
      if (context.responseBudget.exceeded) {
        // The budget covers the whole operation: once spent, the answer ends with the error.
        const { errors } = responseTooLarge(context.responseBudget.maxBytes);
        yield { hasNext: false, incremental: [{ data: null, path: [], errors }] };
        return;
      }
      yield {
        hasNext: part.hasNext,
        ...(part.incremental && {
          incremental: part.incremental.map(({ errors, ...entry }) => ({
            ...entry,
            ...(errors && { errors: errors.map((error) => formatError(error.toJSON())) }),
          })),
        }),
      };
    }
  } finally {
    await parts.return();
  }
}
