import type { ClientErrorCode } from '@fedgw/gateway/contract';

/**
 * Errors raised before Apollo Server sees a request (body parsing, size limit) are
 * answered with the same JSON shape and codes on every platform.
 */
export interface HttpErrorResponse {
  status: number;
  body: string;
}

// Typed by the core's error registry: an unregistered code does not compile.
const CODES: Record<number, { code: ClientErrorCode; message: (limit: number) => string }> = {
  400: { code: 'BAD_REQUEST', message: () => 'Malformed request body: it is not valid JSON.' },
  413: {
    code: 'PAYLOAD_TOO_LARGE',
    message: (limit) => `Request body is larger than the limit of ${limit} bytes.`,
  },
  415: { code: 'UNSUPPORTED_MEDIA_TYPE', message: () => 'Unsupported Content-Type.' },
};

// Body coding failures, told apart by the `type` body-parser gives them (and BodyCodingError
// copies) or by zlib's own error codes (Fastify hands those on as they are).
const CODING_ERRORS: Record<string, { status: number; code: ClientErrorCode; message: string }> = {
  'encoding.unsupported': {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Unsupported Content-Encoding: send gzip, deflate, br or identity.',
  },
  'encoding.invalid': {
    status: 400,
    code: 'BAD_REQUEST',
    message: 'Malformed request body: it cannot be decoded as its Content-Encoding says.',
  },
};

/** Maps a framework's parse error (anything with a 4xx `status`/`statusCode`) to our response. */
export function httpErrorResponse(error: unknown, bodyLimitBytes: number): HttpErrorResponse {
  const coding = CODING_ERRORS[codingErrorType(error)];
  if (coding) return { status: coding.status, body: errorBody(coding.message, coding.code) };
  const status = statusOf(error);
  const known = CODES[status];
  if (known) {
    return { status, body: errorBody(known.message(bodyLimitBytes), known.code) };
  }
  if (status >= 400 && status < 500) {
    return { status, body: errorBody('Bad request.', 'BAD_REQUEST') };
  }
  return { status: 500, body: errorBody('Internal server error.', 'INTERNAL_SERVER_ERROR') };
}

export function errorBody(message: string, code: ClientErrorCode): string {
  return JSON.stringify({ errors: [{ message, extensions: { code } }] });
}

function statusOf(error: unknown): number {
  if (typeof error === 'object' && error !== null) {
    const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
    const value = typeof statusCode === 'number' ? statusCode : status;
    if (typeof value === 'number') return value;
  }
  return 500;
}

function codingErrorType(error: unknown): string {
  if (typeof error !== 'object' || error === null) return '';
  const { type, code, errno } = error as { type?: unknown; code?: unknown; errno?: unknown };
  if (type === 'encoding.unsupported') return type;
  // zlib's errors: Z_DATA_ERROR, Z_BUF_ERROR (truncated), ERR__ERROR_FORMAT_* (brotli).
  if (typeof errno === 'number' && typeof code === 'string' && /^(?:Z_|ERR__ERROR_)/.test(code))
    return 'encoding.invalid';
  return '';
}
