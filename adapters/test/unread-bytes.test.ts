import { describe, expect, it } from 'vitest';
import { UNREAD_BYTES_REFUSAL, unreadBytesLimits } from '../src/unread-bytes.js';

const MB = 1024 ** 2;

describe('the limits on unread answers one listener applies', () => {
  it('defaults to 128 MB in total, a quarter of it per client, 8 unfinished answers per client', () => {
    expect(unreadBytesLimits({})).toEqual({ maxTotal: 128 * MB, maxPerClient: 32 * MB, maxAnswersPerClient: 8 });
  });

  it('derives the per-client bytes from the total unless set', () => {
    expect(unreadBytesLimits({ unreadBytesMaxTotal: 64 * MB }).maxPerClient).toBe(16 * MB);
    expect(unreadBytesLimits({ unreadBytesMaxTotal: 64 * MB, unreadBytesMaxPerClient: 40 * MB }).maxPerClient).toBe(
      40 * MB,
    );
  });

  it('gives each of N cluster workers 1/N, so the process holds what the settings say', () => {
    expect(unreadBytesLimits({ workers: 2 })).toEqual({
      maxTotal: 64 * MB,
      maxPerClient: 16 * MB,
      maxAnswersPerClient: 4,
    });
    expect(unreadBytesLimits({ workers: 3, unreadAnswersMaxPerClient: 4 }).maxAnswersPerClient).toBe(2);
  });

  it('refuses with a coded 429 that says when to come back', () => {
    expect(UNREAD_BYTES_REFUSAL.status).toBe(429);
    expect(UNREAD_BYTES_REFUSAL.headers['retry-after']).toBe('1');
    expect(JSON.parse(UNREAD_BYTES_REFUSAL.body).errors[0].extensions.code).toBe('UNREAD_ANSWERS_LIMIT_EXCEEDED');
  });
});
