import type { ScenarioResult } from '../../run/results.js';
import { chartsA } from './a-router-vs-node.js';
import { chartsB } from './b-adapters.js';
import { chartsC } from './c-deltas.js';
import { chartsD } from './d-kept.js';
import { chartsE } from './e-rates.js';

/** Each scenario's charts, drawn to show its finding (HTML figures, no scripts). */
export function scenarioCharts(scenario: ScenarioResult): string[] {
  switch (scenario.id) {
    case 'A':
      return chartsA(scenario);
    case 'B':
      return chartsB(scenario);
    case 'C':
      return chartsC(scenario);
    case 'D':
      return chartsD(scenario);
    case 'E':
      return chartsE(scenario);
    // Same shape as §A (targets × variants, the Router's share beside each bar).
    case 'F':
      return chartsA(scenario);
    // §G's finding is in its table (subgraph requests per request beside CPU and latency).
    case 'G':
    case 'H':
      return [];
  }
}
