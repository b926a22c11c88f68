import { custom, type Parsed, type ValueParser } from '../settings/kinds.js';

/** One CORS_ORIGINS entry: `*`, or an origin exactly as a browser sends it (scheme, host, port; no path). */
export const corsOrigin: ValueParser<string> = custom('an origin such as https://app.example.com, or *', (raw) => {
  if (raw === '*') return { ok: true, value: '*' };
  if (typeof raw !== 'string' || !URL.canParse(raw)) return { ok: false, message: `"${String(raw)}" is not an origin` };
  const { origin } = new URL(raw);
  if (origin === 'null' || origin !== raw) {
    return {
      ok: false,
      message: `"${raw}" is not an origin as browsers send it (expected "${origin}": no path or trailing /)`,
    };
  }
  return { ok: true, value: raw };
});

/**
 * CORS_MATCH_ORIGINS: regular expressions separated by white space (an origin has none, and a
 * comma is common inside a pattern: `{1,3}`), or a JSON array in the config file. Each must compile.
 */
export const originPatterns: ValueParser<string[]> = custom(
  'regular expressions separated by spaces',
  (raw): Parsed<string[]> => {
    const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(/\s+/).filter(Boolean) : undefined;
    if (!items || items.some((item) => typeof item !== 'string')) return { ok: false, message: 'expected patterns' };
    for (const pattern of items as string[]) {
      try {
        new RegExp(pattern);
      } catch (error) {
        return { ok: false, message: `"${pattern}" is not a regular expression: ${(error as Error).message}` };
      }
    }
    return { ok: true, value: items as string[] };
  },
);
