import { describe, expect, it } from 'vitest';
import { formatShadowReport, readShadowLog } from '../../../src/plugins/shadow/report.js';

const differs = (operationName: string | null, paths: string[], count: number, target = 'url', run = 'a1') =>
  JSON.stringify({ level: 40, msg: 'shadow answer differs', shadow: { target, operationName, paths, count, run } });

describe('pnpm shadow:report', () => {
  it('prints per operation each differing path with how often, from the highest count of each difference', () => {
    const lines = [
      'not json at all',
      '{"level":30,"msg":"request completed"}',
      differs('ProductPage', ['product.name'], 1),
      differs('ProductPage', ['product.name'], 2),
      differs('ProductPage', ['product.name', 'product.price'], 1),
      differs('ProductPage', ['product.name'], 4),
      // Another replica (or a restart) counts from 1 again: its counts add up.
      differs('ProductPage', ['product.name'], 1, 'url', 'b2'),
      differs('ProductPage', ['product.name'], 3, 'url', 'b2'),
      differs(null, ['me.id'], 1, 'supergraph'),
      JSON.stringify({ msg: 'shadow request failed', shadow: { target: 'url', reason: 'timeout' }, suppressed: 3 }),
      '{"msg":"shadow answer differs","shadow":"broken"}',
    ];
    expect(formatShadowReport(readShadowLog(lines))).toBe(
      [
        'operation (anonymous)',
        '  supergraph  me.id  1',
        'operation ProductPage',
        '  url  product.name  8',
        '  url  product.price  1',
        'failed url  timeout  4',
        '',
      ].join('\n'),
    );
  });

  it('says when there is nothing', () => {
    expect(formatShadowReport(readShadowLog([]))).toBe('No differences logged.\n');
  });
});
