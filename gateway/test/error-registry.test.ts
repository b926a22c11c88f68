import { readFileSync } from 'node:fs';
import { ROOT } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';
import {
  CLIENT_ERRORS,
  type ClientErrorCode,
  isClientSafe,
  LEGACY_CODES,
  STARTUP_ERRORS,
} from '../src/error-registry.js';
import { GatewayErrorCode } from '../src/errors.js';
import { createFormatError } from '../src/format-error.js';
import { httpError } from '../src/http-error.js';

const SECURITY_PAGE = readFileSync(`${ROOT}docs/security.md`, 'utf8');

/** docs/security.md's "Errors clients see" table: code → the HTTP cells of the rows naming it. */
function readmeErrorTable(): Map<string, string[]> {
  const start = SECURITY_PAGE.indexOf('## Errors clients see');
  const section = SECURITY_PAGE.slice(start, SECURITY_PAGE.indexOf('\n### ', start + 1));
  const rows = new Map<string, string[]>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const code = cells[3]?.match(/^`([A-Z_]+)`/)?.[1];
    if (code) rows.set(code, [...(rows.get(code) ?? []), cells[2] ?? '']);
  }
  return rows;
}

/** docs/security.md's "Codes renamed to Apollo Router's" table: old code → the codes in its row's last cell. */
function renamedTable(): Map<string, string[]> {
  const start = SECURITY_PAGE.indexOf("### Codes renamed to Apollo Router's");
  const section = SECURITY_PAGE.slice(start, SECURITY_PAGE.indexOf('\n#', start + 1));
  const rows = new Map<string, string[]>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const old = cells[2]?.match(/^`([A-Z_]+)`$/)?.[1];
    if (old)
      rows.set(
        old,
        [...(cells[3] ?? '').matchAll(/`([A-Z_]+)`/g)].map((match) => match[1] ?? ''),
      );
  }
  return rows;
}

describe('the error registry', () => {
  it("lists every renamed code in docs/security.md with the Router's codes that replaced it, each registered", () => {
    const table = renamedTable();
    expect([...table.keys()].sort()).toEqual(Object.keys(LEGACY_CODES).sort());
    for (const [old, now] of Object.entries(LEGACY_CODES)) {
      expect(table.get(old), old).toEqual([...now]);
      for (const code of now) expect(CLIENT_ERRORS[code].clientSafe, code).toBe(true);
    }
  });

  it('keeps legacyCode under MASK_ERRORS, beside the code', () => {
    const masked = createFormatError(true)({
      message: 'Rate limit exceeded',
      extensions: { code: 'REQUEST_RATE_LIMITED', legacyCode: 'RATE_LIMITED', stack: 'x' },
    });
    expect(masked.extensions).toEqual({ code: 'REQUEST_RATE_LIMITED', legacyCode: 'RATE_LIMITED' });
  });

  it('matches the table in docs/security.md: every client code has a row with its HTTP status, every row a registered code', () => {
    const table = readmeErrorTable();
    expect([...table.keys()].sort()).toEqual(Object.keys(CLIENT_ERRORS).sort());
    for (const [code, spec] of Object.entries(CLIENT_ERRORS)) {
      for (const status of table.get(code) ?? []) expect(status, code).toMatch(new RegExp(`^${spec.status}\\b`));
    }
  });

  it('gives httpError its status: a plugin cannot answer a code with another status', () => {
    for (const [code, spec] of Object.entries(CLIENT_ERRORS)) {
      const error = httpError(code as ClientErrorCode, 'message');
      expect(error.extensions.code).toBe(code);
      expect((error.extensions.http as { status: number }).status).toBe(spec.status);
    }
  });

  it('registers every startup code, and masks only what is not client-safe', () => {
    for (const code of Object.values(GatewayErrorCode)) expect(STARTUP_ERRORS[code]).toBeTypeOf('string');
    expect(isClientSafe('INTERNAL_SERVER_ERROR')).toBe(false);
    expect(isClientSafe('DOWNSTREAM_SERVICE_ERROR')).toBe(false);
    expect(isClientSafe('REQUEST_RATE_LIMITED')).toBe(true);
    expect(isClientSafe('RATE_LIMITED')).toBe(true);
  });
});
