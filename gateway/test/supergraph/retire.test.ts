import { describe, expect, it } from 'vitest';
import { DataSourceRetirement } from '../../src/supergraph/retire.js';

/** Something with `close()`, recording when it was closed. */
function source(name: string, closed: string[]) {
  return {
    close: async () => {
      closed.push(name);
    },
  };
}

describe('DataSourceRetirement', () => {
  it('closes a replaced source at once when no request is running', () => {
    const closed: string[] = [];
    new DataSourceRetirement().retire(source('old', closed));
    expect(closed).toEqual(['old']);
  });

  it('waits for the requests that started before the swap, not for later ones', () => {
    const closed: string[] = [];
    const retirement = new DataSourceRetirement();
    const before1 = retirement.begin();
    const before2 = retirement.begin();
    retirement.retire(source('old', closed));
    const after = retirement.begin(); // started on the new source: does not hold the old one
    before1();
    expect(closed).toEqual([]);
    before2();
    expect(closed).toEqual(['old']);
    after();
    expect(retirement.pending).toBe(0);
  });

  it('retires in generations: each source waits only for the requests older than itself', () => {
    const closed: string[] = [];
    const retirement = new DataSourceRetirement();
    const first = retirement.begin();
    retirement.retire(source('v1', closed));
    const second = retirement.begin();
    retirement.retire(source('v2', closed));
    second();
    expect(closed).toEqual([]); // `first` is older than both retirements: both wait for it
    first();
    expect(closed.sort()).toEqual(['v1', 'v2']);
  });

  it('counts a request once however often its end is reported', () => {
    const closed: string[] = [];
    const retirement = new DataSourceRetirement();
    const a = retirement.begin();
    const b = retirement.begin();
    retirement.retire(source('old', closed));
    a();
    a();
    expect(closed).toEqual([]);
    b();
    expect(closed).toEqual(['old']);
  });

  it('closes everything still waiting when the gateway stops', async () => {
    const closed: string[] = [];
    const retirement = new DataSourceRetirement();
    retirement.begin(); // never ends
    retirement.retire(source('old', closed));
    await retirement.closeAll();
    expect(closed).toEqual(['old']);
  });
});
