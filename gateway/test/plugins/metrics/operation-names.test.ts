import { describe, expect, it } from 'vitest';
import { ANONYMOUS, OperationNames, OTHER, UNRESOLVED } from '../../../src/plugins/metrics/operation-names.js';

/** Label values as strings: `create` returns the label itself. */
const names = (max: number, minCount: number) => new OperationNames(max, (label) => label, minCount);

describe('OperationNames', () => {
  it('gives a name its own value from its minCount-th validated, unrefused request on', () => {
    const labels = names(10, 3);
    expect([labels.get('GetUser', true), labels.get('GetUser', true)]).toEqual([OTHER, OTHER]);
    expect(labels.get('GetUser', true)).toBe('GetUser');
    expect(labels.get('GetUser', true, false)).toBe('GetUser');
    expect([labels.get(null, true), labels.get('GetUser', false)]).toEqual([ANONYMOUS, UNRESOLVED]);
  });

  it('never counts a refused request towards a label', () => {
    const labels = names(10, 2);
    for (let i = 0; i < 50; i++) expect(labels.get('Pricey', true, false)).toBe(OTHER);
    expect(labels.get('Pricey', true)).toBe(OTHER);
    expect(labels.get('Pricey', true)).toBe('Pricey');
  });

  it('keeps a returning name through a flood of one-off names larger than its candidate table', () => {
    const labels = names(2, 3);
    labels.get('GetUser', true);
    labels.get('GetUser', true);
    for (let i = 0; i < 10_000; i++) labels.get(`Junk${i}`, true);
    expect(labels.get('GetUser', true)).toBe('GetUser');
  });

  it('holds at most max names, and never takes back a value it gave', () => {
    const labels = names(2, 1);
    expect([labels.get('A', true), labels.get('B', true), labels.get('C', true)]).toEqual(['A', 'B', OTHER]);
    for (let i = 0; i < 100; i++) labels.get('C', true);
    expect([labels.get('A', true), labels.get('C', true)]).toEqual(['A', OTHER]);
  });
});
