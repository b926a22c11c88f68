import type { GatewayPlugin } from '../../plugin-sdk/index.js';
import { ClientErrorCode, emitEvent, httpError, realClock } from '../../plugin-sdk/index.js';
import { classifier } from './classify.js';
import { checkOptions, type LoadSheddingOptions, PLUGIN_NAME } from './options.js';
import { sampleEventLoopDelay } from './pressure.js';

export { classIssues, readClasses, readRule, type ShedClasses, type ShedRule } from './classes.js';
export { CLIENT_NAME_HEADER } from './classify.js';
export { type LoadSheddingOptions, SHEDDING_DEFAULTS, SHEDDING_VALUES } from './options.js';
export { type DelayHistogram, type EventLoopDelay, sampleEventLoopDelay } from './pressure.js';

/**
 * Refuses new requests of the least important class first when the gateway is past a bound
 * (operations in flight in the GraphQL pipeline, mean event-loop delay), and more important
 * ones only as the overload grows: priority p is shed once the pressure (the reading over its
 * bound, the larger of the two) reaches 1 + (least − p) × step. It decides in `authenticate`, after the auth plugins
 * (their verified identity is what classes are given by) and before anything charges the
 * request: no rate-limit hit, no parse, no plan, no subgraph. A shed request is 503
 * REQUEST_CONCURRENCY_LIMITED (Apollo Router's code for its own overload refusal) with
 * `Retry-After`. Subscriptions already open are never touched; health and metrics routes never
 * reach a plugin.
 */
export function loadShedding(options: LoadSheddingOptions): GatewayPlugin {
  const settings = checkOptions(options);
  const { classes, maxInFlight, maxEventLoopDelayMs, stepPercent } = settings;
  const classOf = classifier(settings.rules, settings.defaultClass);
  const least = Math.max(...Object.values(classes));
  /** The pressure at which each class is shed. */
  const shedAt = new Map(
    Object.entries(classes).map(([name, priority]) => [name, 1 + ((least - priority) * stepPercent) / 100]),
  );
  const monitor =
    maxEventLoopDelayMs > 0 && !options.eventLoopDelay
      ? sampleEventLoopDelay(settings.eventLoopSampleMs, options.clock ?? realClock)
      : undefined;
  const eventLoopDelay = options.eventLoopDelay ?? monitor?.delayMs ?? (() => 0);
  let inFlight = 0;
  const pressure = (): number =>
    Math.max(
      maxInFlight > 0 ? inFlight / maxInFlight : 0,
      maxEventLoopDelayMs > 0 ? eventLoopDelay() / maxEventLoopDelayMs : 0,
    );
  const retryAfter = String(settings.retryAfterSec);

  return {
    name: PLUGIN_NAME,
    authenticate(scope, established) {
      const className = classOf(established ?? {}, scope.headers);
      if (pressure() < (shedAt.get(className) as number)) return undefined;
      if (options.plugins) emitEvent(options.plugins(), { type: 'load-shed', className });
      throw httpError(
        ClientErrorCode.REQUEST_CONCURRENCY_LIMITED,
        `The gateway is overloaded and refused this request; retry in ${retryAfter} s`,
        { 'retry-after': retryAfter },
      );
    },
    apollo: {
      // From the start of its pipeline to its answer: Apollo Server ends every pipeline with
      // `willSendResponse` (refusals and errors too), so the count never leaks. A subscription
      // counts until its stream starts, not for its whole life.
      async requestDidStart() {
        inFlight += 1;
        let counted = true;
        return {
          async willSendResponse() {
            if (counted) inFlight -= 1;
            counted = false;
          },
        };
      },
    },
    async close() {
      monitor?.close();
    },
  };
}
