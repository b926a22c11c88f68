import { CLIENT_ERRORS, type ClientErrorCode } from '@fedgw/gateway';
import { describe, expect, it } from 'vitest';
import { errorBody, httpErrorResponse } from '../src/http-errors.js';

const LIMIT = 1_048_576;

function parsed(error: unknown) {
  const response = httpErrorResponse(error, LIMIT);
  return { status: response.status, body: JSON.parse(response.body) as unknown, raw: response.body };
}

function graphqlError(message: string, code: string) {
  return { errors: [{ message, extensions: { code } }] };
}

describe('httpErrorResponse: known statuses', () => {
  it('maps 400 to BAD_REQUEST', () => {
    expect(parsed({ statusCode: 400 })).toMatchObject({
      status: 400,
      body: graphqlError('Malformed request body: it is not valid JSON.', 'BAD_REQUEST'),
    });
  });

  it('maps 413 to PAYLOAD_TOO_LARGE, naming the limit', () => {
    const response = httpErrorResponse({ statusCode: 413 }, 2048);

    expect(response.status).toBe(413);
    expect(JSON.parse(response.body)).toEqual(
      graphqlError('Request body is larger than the limit of 2048 bytes.', 'PAYLOAD_TOO_LARGE'),
    );
  });

  it('maps 415 to UNSUPPORTED_MEDIA_TYPE', () => {
    expect(parsed({ statusCode: 415 })).toMatchObject({
      status: 415,
      body: graphqlError('Unsupported Content-Type.', 'UNSUPPORTED_MEDIA_TYPE'),
    });
  });
});

describe('httpErrorResponse: where the status comes from', () => {
  it('reads `status` (Express body-parser style)', () => {
    const error = Object.assign(new Error('request entity too large'), { status: 413, type: 'entity.too.large' });

    expect(parsed(error)).toMatchObject({
      status: 413,
      body: { errors: [{ extensions: { code: 'PAYLOAD_TOO_LARGE' } }] },
    });
  });

  it('reads `statusCode` (Fastify style)', () => {
    const error = Object.assign(new Error("Body is not valid JSON but content-type is set to 'application/json'"), {
      statusCode: 400,
      code: 'FST_ERR_CTP_INVALID_JSON_BODY',
    });

    expect(parsed(error)).toMatchObject({ status: 400, body: { errors: [{ extensions: { code: 'BAD_REQUEST' } }] } });
  });

  it('prefers `statusCode` over `status` when both are numbers', () => {
    expect(parsed({ statusCode: 415, status: 400 }).status).toBe(415);
  });

  it('falls back to `status` when `statusCode` is not a number', () => {
    expect(parsed({ statusCode: '400', status: 413 }).status).toBe(413);
  });
});

describe('httpErrorResponse: other statuses', () => {
  it.each([401, 404, 405, 408, 422, 431, 499])(
    'answers any other 4xx (%i) with its status and BAD_REQUEST',
    (status) => {
      expect(parsed({ statusCode: status })).toMatchObject({
        status,
        body: graphqlError('Bad request.', 'BAD_REQUEST'),
      });
    },
  );

  it.each([
    ['a plain Error', new Error('boom')],
    ['a 500', { statusCode: 500 }],
    ['a 503', { status: 503 }],
    ['a 2xx', { statusCode: 200 }],
    ['a 3xx', { statusCode: 302 }],
    ['a string status', { status: '413' }],
    ['a string', 'something broke'],
    ['null', null],
    ['undefined', undefined],
  ])('answers %s with 500 INTERNAL_SERVER_ERROR', (_label, error) => {
    expect(parsed(error)).toMatchObject({
      status: 500,
      body: graphqlError('Internal server error.', 'INTERNAL_SERVER_ERROR'),
    });
  });

  it("never includes the original error's message", () => {
    const secret = 'ECONNREFUSED postgres://admin:hunter2@10.0.0.5/db';
    for (const error of [
      new Error(secret),
      Object.assign(new Error(secret), { statusCode: 413 }),
      { status: 404, message: secret },
    ]) {
      const { raw } = parsed(error);
      expect(raw).not.toContain('hunter2');
      expect(raw).not.toContain('10.0.0.5');
    }
  });
});

describe('errorBody', () => {
  it('is a GraphQL error response with one error carrying the code', () => {
    expect(JSON.parse(errorBody('Nope.', 'FORBIDDEN'))).toEqual(graphqlError('Nope.', 'FORBIDDEN'));
  });
});

describe('the error registry', () => {
  it("registers the adapters' own codes with the statuses they answer", () => {
    for (const status of [400, 401, 408, 413, 415, 500]) {
      const answer = httpErrorResponse({ statusCode: status }, 1024);
      const code = JSON.parse(answer.body).errors[0].extensions.code as ClientErrorCode;
      expect(CLIENT_ERRORS[code], `${status} → ${code}`).toBeDefined();
      // BAD_REQUEST keeps a framework's own 4xx (408, 431…); the others are answered with their registered status.
      if (code === 'BAD_REQUEST') expect(answer.status).toBeGreaterThanOrEqual(400);
      else expect(CLIENT_ERRORS[code].status).toBe(answer.status);
    }
  });
});

describe('httpErrorResponse: request body codings', () => {
  it('maps an unsupported Content-Encoding (ours or body-parser’s) to 415 UNSUPPORTED_MEDIA_TYPE, naming the header', () => {
    const answer = parsed({ statusCode: 415, type: 'encoding.unsupported' });
    expect(answer.status).toBe(415);
    expect(answer.body).toEqual(
      graphqlError('Unsupported Content-Encoding: send gzip, deflate, br or identity.', 'UNSUPPORTED_MEDIA_TYPE'),
    );
  });

  it("maps zlib's errors (a truncated or corrupt body), with or without a status, to 400 BAD_REQUEST", () => {
    for (const error of [
      { errno: -5, code: 'Z_BUF_ERROR', message: 'unexpected end of file' },
      { errno: -3, code: 'Z_DATA_ERROR', statusCode: 400 },
      { errno: -14, code: 'ERR__ERROR_FORMAT_PADDING_1' },
    ]) {
      expect(parsed(error)).toMatchObject({
        status: 400,
        body: graphqlError('Malformed request body: it cannot be decoded as its Content-Encoding says.', 'BAD_REQUEST'),
      });
    }
  });

  it('leaves a charset 415 from the body parser as an unsupported Content-Type', () => {
    expect(parsed({ statusCode: 415, type: 'charset.unsupported' }).body).toEqual(
      graphqlError('Unsupported Content-Type.', 'UNSUPPORTED_MEDIA_TYPE'),
    );
  });
});
