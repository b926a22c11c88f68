/**
 * Which transport answers a request, from its `Accept` header: the client's preference (q-values,
 * then the order it listed them in) over the transports the request can have. Clients send mixed
 * lists (urql: `application/graphql-response+json, application/graphql+json, application/json,
 * text/event-stream, multipart/mixed`; Apollo Client: `multipart/mixed;subscriptionSpec=1.0,
 * application/json`), so a header that merely mentions a streaming type does not pick it.
 *
 * - `json`: a single JSON answer (plain GraphQL over HTTP, Apollo Server). `application/json`,
 *   `application/graphql-response+json`, `application/graphql+json`, and the wildcards
 *   `application/*` and `*\/*`.
 * - `event-stream`: graphql-sse's distinct connections mode. Only `text/event-stream` itself.
 * - `multipart-subscription`, `multipart-defer`: Apollo's multipart HTTP, for a subscription
 *   (`subscriptionSpec=1.0`) or for `@defer` and `@stream` (`deferSpec=20220824` or
 *   `incrementalSpec=v0.2`); `multipart/mixed` without a spec parameter (urql) takes either.
 *   Another spec value is another format: not ours.
 *
 * Wildcards stand for JSON only: a streaming transport is a protocol the client must name.
 * When nothing the request can have is acceptable, the answer is `json` if JSON is (plain HTTP
 * then answers, e.g. a subscription's SUBSCRIPTION_NOT_SUPPORTED), or if the header names none
 * of these types at all (absent, empty, malformed, `text/html`: plain HTTP's answer, as before);
 * `undefined` only when the client named our types and refused every one the request can
 * have: a 406 NOT_ACCEPTABLE.
 *
 * The header is read within bounds (its first MAX_ACCEPT_CHARS characters, MAX_ACCEPT_RANGES
 * ranges, MAX_RANGE_PARAMETERS parameters each), so a huge one costs what a normal one does.
 */
import type { Transport } from './contract/index.js';

export type { Transport } from './contract/index.js';

export const MAX_ACCEPT_CHARS = 1024;
export const MAX_ACCEPT_RANGES = 20;
const MAX_RANGE_PARAMETERS = 8;

interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly parameters: ReadonlyMap<string, string>;
  readonly q: number;
  /** Its place in the header: earlier wins a tie in q. */
  readonly index: number;
}

const TOKEN = /^[a-z0-9!#$%&'*+.^_`|~-]+$/;
const Q_VALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;
const JSON_SUBTYPES = new Set(['json', 'graphql-response+json', 'graphql+json']);

/** The header's media ranges, within the bounds above; a malformed range is skipped. */
export function parseAccept(accept: string | readonly string[] | null | undefined): MediaRange[] {
  if (accept === null || accept === undefined) return [];
  let text = typeof accept === 'string' ? accept : accept.join(',');
  if (text.length > MAX_ACCEPT_CHARS) {
    // The cut range is incomplete: keep only whole ones.
    text = text.slice(0, MAX_ACCEPT_CHARS);
    const lastComma = text.lastIndexOf(',');
    text = lastComma === -1 ? '' : text.slice(0, lastComma);
  }
  const ranges: MediaRange[] = [];
  const parts = text.split(',', MAX_ACCEPT_RANGES);
  for (const [index, part] of parts.entries()) {
    const range = parseRange(part, index);
    if (range) ranges.push(range);
  }
  return ranges;
}

function parseRange(part: string, index: number): MediaRange | undefined {
  const [mediaType = '', ...rawParameters] = part.split(';', MAX_RANGE_PARAMETERS + 1);
  const slash = mediaType.indexOf('/');
  if (slash === -1) return undefined;
  const type = mediaType.slice(0, slash).trim().toLowerCase();
  const subtype = mediaType
    .slice(slash + 1)
    .trim()
    .toLowerCase();
  if (!TOKEN.test(type) || !TOKEN.test(subtype) || (type === '*' && subtype !== '*')) return undefined;
  const parameters = new Map<string, string>();
  let q = 1;
  for (const rawParameter of rawParameters) {
    const equals = rawParameter.indexOf('=');
    if (equals === -1) return undefined;
    const name = rawParameter.slice(0, equals).trim().toLowerCase();
    let value = rawParameter.slice(equals + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (!TOKEN.test(name)) return undefined;
    if (name === 'q') {
      if (!Q_VALUE.test(value)) return undefined;
      q = Number(value);
      // Parameters after q are accept-extensions, not the media type's.
      break;
    }
    parameters.set(name, value.toLowerCase());
  }
  return { type, subtype, parameters, q, index };
}

/** How well `range` matches `transport`: 0 not at all, higher is more specific. */
function specificity(range: MediaRange, transport: Transport): number {
  const { type, subtype, parameters } = range;
  switch (transport) {
    case 'json':
      if (type === 'application' && JSON_SUBTYPES.has(subtype)) return 3;
      if (type === 'application' && subtype === '*') return 2;
      return type === '*' ? 1 : 0;
    case 'event-stream':
      return type === 'text' && subtype === 'event-stream' ? 3 : 0;
    case 'multipart-subscription':
    case 'multipart-defer': {
      if (type !== 'multipart' || subtype !== 'mixed') return 0;
      const subscriptionSpec = parameters.get('subscriptionspec');
      const deferSpec = parameters.get('deferspec');
      const incrementalSpec = parameters.get('incrementalspec');
      const specs = [...parameters.keys()].filter((name) => name.endsWith('spec'));
      const known = new Set(['subscriptionspec', 'deferspec', 'incrementalspec']);
      if (specs.some((name) => !known.has(name))) return 0;
      if (specs.length === 0) return 3;
      if (specs.length > 1) return 0;
      if (transport === 'multipart-subscription') return subscriptionSpec === '1.0' ? 4 : 0;
      // @defer and @stream: the 2022-08-24 format or graphql-js 17 alpha 9's (executor/incremental-format.ts).
      return deferSpec === '20220824' || incrementalSpec === 'v0.2' ? 4 : 0;
    }
  }
}

/** The range that decides for `transport`: the most specific match, the first listed among equals. */
function rangeFor(ranges: readonly MediaRange[], transport: Transport): MediaRange | undefined {
  let best: MediaRange | undefined;
  let bestSpecificity = 0;
  for (const range of ranges) {
    const score = specificity(range, transport);
    if (score > bestSpecificity) {
      best = range;
      bestSpecificity = score;
    }
  }
  return best;
}

/**
 * The transport to answer with among `offers` (the ones the request can have, in the server's
 * order for a tie), or `undefined` for a 406. See the module's comment for the rules.
 */
export function chooseTransport(
  accept: string | readonly string[] | null | undefined,
  offers: readonly Transport[],
): Transport | undefined {
  const ranges = parseAccept(accept);
  let chosen: { transport: Transport; q: number; index: number } | undefined;
  for (const transport of offers) {
    const range = rangeFor(ranges, transport);
    if (!range || range.q <= 0) continue;
    if (!chosen || range.q > chosen.q || (range.q === chosen.q && range.index < chosen.index))
      chosen = { transport, q: range.q, index: range.index };
  }
  if (chosen) return chosen.transport;
  const json = rangeFor(ranges, 'json');
  if (json ? json.q > 0 : !namesAny(ranges)) return 'json';
  return undefined;
}

/** Whether the header names any type a transport here serves (a wildcard counts for JSON). */
function namesAny(ranges: readonly MediaRange[]): boolean {
  const all: readonly Transport[] = ['json', 'event-stream', 'multipart-subscription', 'multipart-defer'];
  return all.some((transport) => rangeFor(ranges, transport) !== undefined);
}

/** Whether an operation with @defer may be answered in the multipart format (else Apollo Router's 406). */
export function acceptsDefer(accept: string | readonly string[] | null | undefined): boolean {
  return chooseTransport(accept, ['multipart-defer']) === 'multipart-defer';
}
