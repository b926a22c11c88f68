import type { ApolloServerPlugin } from '@apollo/server';
import type { GraphQLFormattedError } from 'graphql';
import type { GatewayContext } from '../contract/index.js';
import { ClientErrorCode } from '../error-registry.js';
import { httpError } from '../http-error.js';
import { responseTooLarge } from '../response-budget.js';
import type { Pending } from './deferred-plan.js';
import type { SubsequentPart } from './deferred-run.js';
import { type IncrementalFormat, MEDIA_TYPES, type Part20220824, toV02 } from './incremental-format.js';

/**
 * How an operation with @defer or @stream reaches the client. Apollo Server writes a multipart body
 * (`multipart/mixed; boundary="-"; deferSpec=20220824`: Apollo Server's framing of the Router's
 * 2022-08-24 format, the Router itself writes `boundary="graphql"`; or `incrementalSpec=v0.2`) for an
 * answer whose body is `incremental`, but hands a gateway's executor result over as a single
 * one. So the executor answers the initial part and leaves the later parts on the request's
 * context, and this plugin's `willSendResponse` (after Apollo Server formatted the initial
 * part's errors and set its status) turns the body incremental with them.
 */
const PARTS = Symbol('deferred parts');
const DELIVERY = Symbol('incremental format');

type Parts = AsyncGenerator<SubsequentPart, void, undefined>;
interface Delivery {
  readonly format: IncrementalFormat;
  /** The boundaries the later parts complete (the v0.2 format announces them). */
  readonly pending: readonly Pending[];
}

/** Apollo Router's answer (and Apollo Server's) to @defer or @stream from a client that cannot read multipart: 406. */
export function deferNotAccepted(directive: '@defer' | '@stream' = '@defer') {
  return httpError(
    ClientErrorCode.NOT_ACCEPTABLE,
    `the operation uses ${directive}, but the request does not accept multipart/mixed answers in a format served here; send 'Accept: multipart/mixed;deferSpec=20220824, application/json' or 'Accept: multipart/mixed;incrementalSpec=v0.2, application/json'`,
  );
}

export function leaveDeferredParts(context: GatewayContext, parts: Parts, delivery: Delivery): void {
  (context as { [PARTS]?: Parts })[PARTS] = parts;
  (context as { [DELIVERY]?: Delivery })[DELIVERY] = delivery;
}

/**
 * For a plugin's `aroundExecute`: an operation with @defer or @stream answers its initial part,
 * and the later parts come through the context, in the 2022-08-24 shape whatever the client's
 * format (`{data, path}` for a deferred fragment, `{items, path}` for a streamed list's items).
 * This maps each of them (authorization patches each deferred block's data, and each streamed
 * item, as it patches an answer).
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
 * Whether a request's document may hold @defer or @stream, from its text (a comment or string naming it
 * only answers yes where no would be right). Inbound deduplication leaves those alone: their
 * later parts belong to the request that ran them.
 */
export function mayDefer(source: string | undefined): boolean {
  return source === undefined || source.includes('@defer') || source.includes('@stream');
}

/** Apollo Server's side: the incremental body, each later part's errors formatted as the initial part's were. */
export function deferredDeliveryPlugin(
  formatError: (formatted: GraphQLFormattedError) => GraphQLFormattedError,
): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ request, response, contextValue }) {
          const holder = contextValue as { [PARTS]?: Parts; [DELIVERY]?: Delivery };
          const parts = holder[PARTS];
          const delivery = holder[DELIVERY] ?? { format: '20220824', pending: [] };
          if (!parts) return;
          delete holder[PARTS];
          delete holder[DELIVERY];
          // An answer replaced by an error (response budget spent, a plugin's refusal): the rest is not sent.
          if (response.body.kind !== 'single' || contextValue.responseBudget.exceeded) {
            void parts.return();
            return;
          }
          // The executor found the Accept takes this format; Apollo Server's own check knows only the
          // spelled-out parameter (a plain `multipart/mixed`, urql's, it would refuse with 406).
          request.http?.headers.set('accept', MEDIA_TYPES[delivery.format]);
          const written = formatted(parts, contextValue, formatError, delivery.format === 'v0.2');
          if (delivery.format === '20220824') {
            response.body = {
              kind: 'incremental',
              initialResult: { ...response.body.singleResult, hasNext: true },
              subsequentResults: written,
            };
            return;
          }
          const { pending, convert } = toV02(delivery.pending);
          response.body = {
            kind: 'incremental',
            initialResult: { ...response.body.singleResult, pending, hasNext: true } as never,
            subsequentResults: converted(written, convert),
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
  /** The v0.2 conversion reads each entry's `pendingKey`; the 2022-08-24 format does not write it. */
  keepKeys: boolean,
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
          incremental: part.incremental.map(({ errors, pendingKey, ...entry }) => ({
            ...entry,
            ...(keepKeys && { pendingKey }),
            ...(errors && { errors: errors.map((error) => formatError(error.toJSON())) }),
          })),
        }),
      } as Part20220824;
    }
  } finally {
    await parts.return();
  }
}

/** The 2022-08-24 parts as v0.2 ones; `pendingKey` is never written (`formatted` keeps it for this). */
async function* converted(parts: AsyncGenerator<Part20220824>, convert: (part: Part20220824) => object) {
  try {
    for await (const part of parts) yield convert(part) as never;
  } finally {
    await parts.return(undefined);
  }
}
