import { randomUUID } from 'node:crypto';
import type { GatewayPlugin } from '../../plugin-sdk/index.js';
import {
  asOptionsObject,
  checkKnownKeys,
  isHeaderName,
  OptionIssues,
  RESERVED_HEADERS,
} from '../../plugin-sdk/index.js';

/**
 * Static and generated headers on every GraphQL response, so experiments such as §C's
 * "ten random GUID headers" run as configuration, not special code.
 */
export interface ResponseHeader {
  name: string;
  /** Literal, or with placeholders: `{uuid}` (a new random UUID per response), `{requestId}`. */
  value: string;
}

export interface ResponseHeadersOptions {
  readonly headers: readonly ResponseHeader[];
}

const PLUGIN = 'response-headers';
const PLACEHOLDER = /\{(uuid|requestId)\}/g;

export function responseHeaders(options: ResponseHeadersOptions): GatewayPlugin {
  const issues = new OptionIssues();
  checkKnownKeys(issues, asOptionsObject(PLUGIN, options), ['headers']);
  const headers: readonly ResponseHeader[] = Array.isArray(options.headers) ? options.headers : [];
  if (headers.length === 0) issues.add('headers', 'expected at least one header');
  headers.forEach((header, index) => {
    checkKnownKeys(issues, header ?? {}, ['name', 'value'], `headers[${index}].`);
    if (!isHeaderName(header?.name) || RESERVED_HEADERS.has(header.name.toLowerCase())) {
      issues.add(`headers[${index}].name`, 'must be a header name that is not reserved');
    }
    if (typeof header?.value !== 'string' || /[\r\n]/.test(header.value)) {
      issues.add(`headers[${index}].value`, 'must be a string without line breaks');
    }
  });
  issues.throwIfAny(PLUGIN);

  const compiled = headers.map(({ name, value }) => ({
    name: name.toLowerCase(),
    value,
    dynamic: /\{(uuid|requestId)\}/.test(value),
  }));
  return {
    name: 'response-headers',
    apollo: {
      async requestDidStart() {
        return {
          async willSendResponse({ response, contextValue }) {
            for (const header of compiled) {
              const value = header.dynamic
                ? header.value.replace(PLACEHOLDER, (_, key: string) =>
                    key === 'uuid' ? randomUUID() : contextValue.requestId,
                  )
                : header.value;
              response.http.headers.set(header.name, value);
            }
          },
        };
      },
    },
  };
}
