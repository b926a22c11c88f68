/** The content codings the gateway answers in, besides identity. */
export type ResponseCoding = 'br' | 'gzip';

// On a tie the first wins. On our answers brotli at quality 4 is no smaller than gzip at level 6
// and costs the gateway as much or more (docs/performance.md#compression), so clients that take
// both, as browsers do, get gzip; a client that wants br weighs it higher.
const PREFERENCE: readonly ResponseCoding[] = ['gzip', 'br'];
// RFC 9110 §12.4.2: a qvalue has at most three decimals and is at most 1.
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * The coding to answer in, from an `Accept-Encoding` header (RFC 9110 §12.5.3), or undefined
 * for identity. A coding the header does not name takes `*`'s weight, q=0 refuses it, and
 * identity wins only when the client weighs it above every coding we have. No header, an
 * empty one, or one that refuses identity too (`*;q=0`) get identity: an uncompressed answer
 * is always readable, and refusing it (406) would help nobody.
 */
export function negotiateCoding(acceptEncoding: string | string[] | undefined): ResponseCoding | undefined {
  if (acceptEncoding === undefined) return undefined;
  const weights = parseWeights(Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : acceptEncoding);
  const wildcard = weights.get('*');
  const weightOf = (coding: string) => weights.get(coding) ?? wildcard ?? 0;
  let best: ResponseCoding | undefined;
  let bestWeight = 0;
  for (const coding of PREFERENCE) {
    const weight = coding === 'gzip' ? Math.max(weightOf('gzip'), weights.get('x-gzip') ?? 0) : weightOf(coding);
    if (weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  // Identity is acceptable unless refused; a client may still weigh it above compression.
  const identity = weights.get('identity');
  if (best !== undefined && identity !== undefined && identity > bestWeight) return undefined;
  return best;
}

/** Lower-cased coding → weight; a malformed qvalue drops its entry (read as not sent). */
function parseWeights(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const entry of header.split(',')) {
    const [name = '', ...params] = entry.split(';');
    const coding = name.trim().toLowerCase();
    if (coding === '') continue;
    let weight = 1;
    for (const param of params) {
      const [key = '', value = ''] = param.split('=');
      if (key.trim().toLowerCase() !== 'q') continue;
      const q = value.trim();
      weight = QVALUE.test(q) ? Number(q) : Number.NaN;
    }
    if (Number.isNaN(weight)) continue;
    // The same coding twice: the larger weight (no RFC rule; the lenient reading).
    weights.set(coding, Math.max(weight, weights.get(coding) ?? 0));
  }
  return weights;
}
