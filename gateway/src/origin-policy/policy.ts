import type { Scheme } from '../client-address/index.js';
import type { OriginPolicy, PreflightAnswer } from '../contract/origin-policy.js';
import type { OriginSettings } from './settings.js';

// What a preflight may ask to send, mirrored only when it is a plain list of header names.
const HEADER_LIST = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+(?:[ \t]*,[ \t]*[A-Za-z0-9!#$%&'*+.^_`|~-]+)*$/;
const MAX_MIRRORED = 1024;
const NONE: Readonly<Record<string, string>> = Object.freeze({});

/**
 * The origin policy of docs/browsers-and-clients.md, modelled on Apollo Router's `cors`: exact
 * origins, anchored patterns, credentials only for listed origins. `methods` are those the
 * gateway path serves (PUT and DELETE with graphql-sse).
 */
export function createOriginPolicy(settings: OriginSettings, methods: readonly string[]): OriginPolicy {
  const exact = new Set(settings.origins.filter((origin) => origin !== '*'));
  const anyOrigin = settings.origins.includes('*');
  const patterns = settings.matchOrigins.map((pattern) => new RegExp(`^(?:${pattern})$`));
  const credentials = settings.allowCredentials;
  const enabled = anyOrigin || exact.size > 0 || patterns.length > 0;
  // With `*` alone every origin gets the same answer; otherwise the answer depends on Origin.
  const vary = !(anyOrigin && exact.size === 0 && patterns.length === 0);

  const listed = (origin: string) => exact.has(origin) || patterns.some((pattern) => pattern.test(origin));
  /** The Access-Control-Allow-Origin value for `origin`, or undefined when it may not call. */
  const allowOriginFor = (origin: string | undefined): string | undefined => {
    if (origin === undefined) return undefined;
    if (listed(origin)) return origin;
    return anyOrigin ? '*' : undefined;
  };

  const common: Record<string, string> = {};
  if (credentials) common['access-control-allow-credentials'] = 'true';
  if (settings.exposeHeaders.length > 0) common['access-control-expose-headers'] = settings.exposeHeaders.join(', ');
  const varyOnly: Readonly<Record<string, string>> = Object.freeze({ vary: 'Origin' });
  const allowMethods = methods.join(', ');
  const configuredHeaders = settings.allowHeaders.length > 0 ? settings.allowHeaders.join(', ') : undefined;

  return {
    enabled,
    preflight(headers): PreflightAnswer {
      const allowOrigin = allowOriginFor(single(headers.origin));
      const requested = single(headers['access-control-request-headers']);
      const answer: Record<string, string> = {
        vary: configuredHeaders ? 'Origin' : 'Origin, Access-Control-Request-Headers',
      };
      if (!allowOrigin || headers['access-control-request-method'] === undefined)
        return { status: 204, headers: answer };
      answer['access-control-allow-origin'] = allowOrigin;
      if (credentials) answer['access-control-allow-credentials'] = 'true';
      answer['access-control-allow-methods'] = allowMethods;
      const allowHeaders =
        configuredHeaders ??
        (requested && requested.length <= MAX_MIRRORED && HEADER_LIST.test(requested) ? requested : undefined);
      if (allowHeaders) answer['access-control-allow-headers'] = allowHeaders;
      if (settings.maxAgeSeconds > 0) answer['access-control-max-age'] = String(settings.maxAgeSeconds);
      return { status: 204, headers: answer };
    },
    answerHeaders(headers) {
      if (!enabled) return undefined;
      const allowOrigin = allowOriginFor(single(headers.origin));
      if (!allowOrigin) return vary ? varyOnly : NONE;
      return { ...common, 'access-control-allow-origin': allowOrigin, ...(vary && { vary: 'Origin' }) };
    },
    allowsCredentialedStream(headers, scheme) {
      const origin = single(headers.origin);
      if (headers.cookie === undefined || origin === undefined) return true;
      if (isSameOrigin(origin, scheme, single(headers.host))) return true;
      return credentials && listed(origin);
    },
  };
}

/**
 * The page's origin is the gateway's own: scheme, host and port (default ports folded), so an
 * `http` page on the gateway's host is not its `https` origin (anyone on the path can write one).
 */
function isSameOrigin(origin: string, scheme: Scheme, host: string | undefined): boolean {
  // A Host is an authority alone: nothing that would make the URL below mean more than it says.
  if (host === undefined || !/^[^/?#@\\\s]+$/.test(host)) return false;
  const own = `${scheme}://${host}`;
  if (!URL.canParse(origin) || !URL.canParse(own)) return false;
  return new URL(origin).origin === new URL(own).origin;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
