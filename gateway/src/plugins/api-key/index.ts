// API-key authentication for machine clients: a key in a header names a consumer. Keys may
// be stored hashed (SHA-256), and every comparison is a constant-time comparison of SHA-256
// digests, so neither a key's content nor its length leaks through timing. The key never
// appears in an error message, a log line, or a subgraph request.

import { createHash, timingSafeEqual } from 'node:crypto';
import type { GatewayPlugin, Identity } from '../../plugin-sdk/index.js';
import {
  asOptionsObject,
  boolean,
  ClientErrorCode,
  checkKnownKeys,
  defaultsOf,
  headerName,
  httpError,
  nonEmpty,
  OptionIssues,
  optionalValue,
  withDefault,
} from '../../plugin-sdk/index.js';
import { firstHeaderValue, isSafeHeaderValue } from '../shared/header-values.js';

const PLUGIN = 'api-key';

/** One accepted key: in clear (`key`) or as the hex SHA-256 of its UTF-8 bytes (`sha256`). */
export type ApiKeyEntry =
  | { readonly consumer: string; readonly key: string }
  | { readonly consumer: string; readonly sha256: string };

/** The header's schema and default; GATEWAY_API_KEY_HEADER is read with it. */
export const API_KEY_VALUES = Object.freeze({
  header: withDefault(nonEmpty, 'x-api-key'),
  required: withDefault(boolean, true),
});
export const API_KEY_DEFAULTS = defaultsOf(API_KEY_VALUES);

export interface ApiKeyAuthOptions {
  /** The accepted keys, one per consumer. Required, non-empty; consumers and keys are unique. */
  keys: readonly ApiKeyEntry[];
  /** Header that carries the key. Default: 'x-api-key' */
  header?: string;
  /**
   * `true`: a request without a key gets 401. `false`: it is served as anonymous; a key
   * that is sent must still be valid (401 otherwise). Default: true
   */
  required?: boolean;
  /**
   * Subgraph request header set to the consumer's name (deleted first, so a client cannot
   * spoof it). The key header itself is always deleted from subgraph requests.
   * Default: none (the consumer is not sent)
   */
  consumerHeader?: string;
}

const KNOWN_OPTIONS = [
  'keys',
  'header',
  'required',
  'consumerHeader',
] as const satisfies readonly (keyof ApiKeyAuthOptions)[];
const SHA256_HEX = /^[0-9a-fA-F]{64}$/;

/** Checks the key in `header` against every configured key; answers `{ consumer }`. */
export function apiKeyAuth(options: ApiKeyAuthOptions): GatewayPlugin {
  const { keys, header, required, consumerHeader } = parseOptions(options);
  const challenge = { 'www-authenticate': `ApiKey header="${header}"` };

  return {
    name: PLUGIN,

    authenticate(scope): Partial<Identity> | undefined {
      const presented = firstHeaderValue(scope.headers[header])?.trim();
      if (!presented) {
        if (!required) return undefined;
        throw httpError(ClientErrorCode.UNAUTHENTICATED, 'API key required', challenge);
      }
      const digest = sha256(presented);
      let consumer: string | undefined;
      // No early exit: every request does the same work whichever key (if any) matches.
      for (const entry of keys) {
        if (timingSafeEqual(digest, entry.digest) && consumer === undefined) consumer = entry.consumer;
      }
      if (consumer === undefined) throw httpError(ClientErrorCode.UNAUTHENTICATED, 'Invalid API key', challenge);
      return { consumer };
    },

    onSubgraphRequest({ headers, context }) {
      delete headers[header];
      if (!consumerHeader) return;
      delete headers[consumerHeader];
      const { consumer } = context.identity;
      if (consumer !== undefined) headers[consumerHeader] = consumer;
    },
  };
}

interface StoredKey {
  readonly consumer: string;
  readonly digest: Buffer;
}

function parseOptions(input: ApiKeyAuthOptions): {
  keys: readonly StoredKey[];
  header: string;
  required: boolean;
  consumerHeader: string | undefined;
} {
  const options = asOptionsObject(PLUGIN, input);
  const issues = new OptionIssues();
  checkKnownKeys(issues, options, KNOWN_OPTIONS);
  const header =
    headerName(issues, 'header', options.header ?? API_KEY_DEFAULTS.header, ['authorization', 'cookie']) ??
    API_KEY_DEFAULTS.header;
  const required = optionalValue(issues, options, 'required', API_KEY_VALUES.required);
  const consumerHeader =
    options.consumerHeader === undefined
      ? undefined
      : headerName(issues, 'consumerHeader', options.consumerHeader, ['authorization', 'cookie', header]);

  const keys: StoredKey[] = [];
  if (!Array.isArray(options.keys) || options.keys.length === 0) {
    issues.add('keys', 'required: a non-empty list of { consumer, key } or { consumer, sha256 }');
  } else {
    const consumers = new Map<string, number>();
    const digests = new Map<string, number>();
    (options.keys as unknown[]).forEach((item, index) => {
      const field = `keys[${index}]`;
      const entry = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
      const { consumer, key, sha256: hash } = entry;
      const problems = Object.keys(entry).filter((name) => !['consumer', 'key', 'sha256'].includes(name));
      if (problems.length > 0) issues.add(field, `unknown field(s): ${problems.join(', ')}`);
      if (typeof consumer !== 'string' || !isSafeHeaderValue(consumer) || consumer.trim() !== consumer) {
        issues.add(`${field}.consumer`, 'must be a non-empty name of printable ASCII characters');
      } else if (consumers.has(consumer)) {
        issues.add(`${field}.consumer`, `duplicate consumer "${consumer}" (also keys[${consumers.get(consumer)}])`);
      } else consumers.set(consumer, index);

      let digest: Buffer | undefined;
      if ((key === undefined) === (hash === undefined)) {
        issues.add(field, 'set exactly one of key and sha256');
      } else if (key !== undefined) {
        // Not echoed: the message must not print a secret into deploy logs.
        if (typeof key !== 'string' || !isSafeHeaderValue(key) || key.trim() !== key) {
          issues.add(`${field}.key`, 'must be a non-empty string of printable ASCII without surrounding spaces');
        } else digest = sha256(key);
      } else if (typeof hash !== 'string' || !SHA256_HEX.test(hash)) {
        issues.add(`${field}.sha256`, 'must be 64 hex characters (the SHA-256 of the key)');
      } else digest = Buffer.from(hash, 'hex');

      if (digest) {
        const hex = digest.toString('hex');
        const other = digests.get(hex);
        if (other !== undefined) issues.add(field, `same key as keys[${other}]`);
        else digests.set(hex, index);
        if (typeof consumer === 'string') keys.push({ consumer, digest });
      }
    });
  }
  issues.throwIfAny(PLUGIN);
  return { keys, header, required, consumerHeader };
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
