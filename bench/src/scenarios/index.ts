import type { PlanContext, ScenarioPlan } from '../run/plan.js';
import type { ScenarioId } from '../run/results.js';
import { planA } from './a-router-vs-node.js';
import { planB } from './b-adapters.js';
import { planC } from './c-extensibility.js';
import { planD } from './d-plugin-stacking.js';
import { planE } from './e-fixed-rates.js';
import { planF } from './f-large-answers.js';
import { planG } from './g-entity-cache.js';
import { planH } from './h-shedding.js';

export const SCENARIO_IDS: readonly ScenarioId[] = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'];

const PLANNERS: Readonly<Record<ScenarioId, (context: PlanContext) => ScenarioPlan>> = {
  A: planA,
  B: planB,
  C: planC,
  D: planD,
  E: planE,
  F: planF,
  G: planG,
  H: planH,
};

export function planScenarios(ids: readonly ScenarioId[], context: PlanContext): ScenarioPlan[] {
  return ids.map((id) => PLANNERS[id](context));
}
