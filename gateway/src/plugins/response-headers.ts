import { randomUUID } from 'node:crypto';
import { PluginOptionsError } from '../errors.js';
import type { GatewayPlugin } from './types.js';

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
  headers: ResponseHeader[];
}

const PLACEHOLDER = /\{(uuid|requestId)\}/g;

export function responseHeaders(options: ResponseHeadersOptions): GatewayPlugin {
  const headers = options.headers ?? [];
  const issues = headers.flatMap((header, index) => {
    const problems = [];
    if (typeof header?.name !== 'string' || !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(header.name)) {
      problems.push({ field: `headers[${index}].name`, message: 'must be a valid header name' });
    }
    if (typeof header?.value !== 'string' || /[\r\n]/.test(header.value)) {
      problems.push({ field: `headers[${index}].value`, message: 'must be a string without line breaks' });
    }
    return problems;
  });
  if (headers.length === 0) issues.push({ field: 'headers', message: 'expected at least one header' });
  if (issues.length > 0) throw new PluginOptionsError('response-headers', issues);

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
