import type { ScenarioResult } from '../../run/results.js';
import type { Table } from '../table.js';
import { comparisonA } from './a-router-vs-node.js';
import { comparisonB } from './b-adapters.js';
import { comparisonC } from './c-extensibility.js';
import { comparisonD } from './d-plugin-stacking.js';
import { comparisonE } from './e-fixed-rates.js';
import { comparisonF } from './f-large-answers.js';

/** The published table, then ours in the same shape with the seed's figure beside each of our ratios. */
export function comparisonTables(scenario: ScenarioResult): Table[] {
  switch (scenario.id) {
    case 'A':
      return comparisonA(scenario);
    case 'B':
      return comparisonB(scenario);
    case 'C':
      return comparisonC(scenario);
    case 'D':
      return comparisonD(scenario);
    case 'E':
      return comparisonE(scenario);
    // §F is ours: the seed published nothing to compare with; its @defer rows get their own table.
    case 'F':
      return comparisonF(scenario);
    // §G is ours too, and has no published figures at all.
    case 'G':
    case 'H':
      return [];
  }
}
