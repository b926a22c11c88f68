// Turning claims and client headers into outgoing header values. A value that cannot be
// sent safely (control characters, non-ASCII, huge) is dropped rather than mangled:
// undici would reject it and fail the whole subgraph request.

/** Longest value written into a subgraph header (bytes; every accepted char is ASCII). */
export const MAX_HEADER_VALUE_LENGTH = 4096;

/** Visible ASCII, space and tab: what every HTTP stack passes through unchanged. */
const SAFE_VALUE = /^[\t\x20-\x7e]*$/;

export function isSafeHeaderValue(value: string): boolean {
  return value.length > 0 && value.length <= MAX_HEADER_VALUE_LENGTH && SAFE_VALUE.test(value);
}

/**
 * A claim as a header value, or `undefined` to leave the header unset:
 * - a string as is; a number or boolean as `String(value)`;
 * - an array of strings/numbers/booleans joined with one space (the OAuth `scope` format);
 * - objects, nested arrays, `null`, and values that are not safe header text are skipped.
 *   (JSON-encoding them would hand every subgraph a parser job and a size problem; map a
 *   scalar claim instead.)
 */
export function claimHeaderValue(claim: unknown): string | undefined {
  let text: string | undefined;
  if (isScalar(claim)) text = String(claim);
  else if (Array.isArray(claim) && claim.length > 0 && claim.every(isScalar)) text = claim.map(String).join(' ');
  return text !== undefined && isSafeHeaderValue(text) ? text : undefined;
}

/** The first value of an incoming header (Node gives `string[]` only for repeated set-cookie). */
export function firstHeaderValue(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : value?.[0];
}

function isScalar(value: unknown): value is string | number | boolean {
  return (
    typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))
  );
}
