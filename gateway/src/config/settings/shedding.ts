import type { ConfigIssue } from '../../errors.js';
import { classIssues, SHEDDING_VALUES } from '../../plugins/load-shedding/index.js';
import { type ConfigOf, defineFields } from './spec.js';

// Load shedding by client priority (plugins/load-shedding/, docs/load-shedding.md).
export const SHEDDING_FIELDS = defineFields([
  {
    key: 'shedding.classes',
    env: 'SHED_CLASSES',
    parse: SHEDDING_VALUES.classes,
    meaning:
      'turns on load shedding: client classes and their priority, 0 the most important (`checkout=0,web=1,batch=2`); past a bound the least important class is refused first (503 `REQUEST_CONCURRENCY_LIMITED`, `Retry-After`); see [Load shedding](load-shedding.md)',
    docDefault: 'none (off)',
  },
  {
    key: 'shedding.rules',
    env: 'SHED_CLASS_RULES',
    parse: SHEDDING_VALUES.rules,
    meaning:
      'which evidence puts a request in a class: `consumer:<api-key consumer>=<class>`, `claim:<jwt claim>=<value>=<class>` (verified), `client:<apollographql-client-name>=<class>` (self-declared: only a class at or below `SHED_DEFAULT_CLASS`); verified rules are tried first',
    docDefault: 'none',
    feature: 'load-shedding',
  },
  {
    key: 'shedding.defaultClass',
    env: 'SHED_DEFAULT_CLASS',
    parse: SHEDDING_VALUES.defaultClass,
    meaning: 'the class of a request no rule matches',
    docDefault: 'the least important class',
    feature: 'load-shedding',
  },
  {
    key: 'shedding.maxInFlight',
    env: 'SHED_MAX_IN_FLIGHT',
    parse: SHEDDING_VALUES.maxInFlight,
    meaning:
      'a bound: GraphQL operations in flight (from parsing to their answer; a subscription until its stream starts) at which the least important class is shed; 0: not a bound',
    feature: 'load-shedding',
  },
  {
    key: 'shedding.maxEventLoopDelayMs',
    env: 'SHED_MAX_EVENT_LOOP_DELAY_MS',
    parse: SHEDDING_VALUES.maxEventLoopDelayMs,
    meaning:
      "a bound: the event loop's mean delay over the last `SHED_EVENT_LOOP_SAMPLE_MS` at which the least important class is shed; 0: not a bound",
    feature: 'load-shedding',
  },
  {
    key: 'shedding.eventLoopSampleMs',
    env: 'SHED_EVENT_LOOP_SAMPLE_MS',
    parse: SHEDDING_VALUES.eventLoopSampleMs,
    meaning: 'the window the event-loop delay is averaged over (and how often it is read)',
    feature: 'load-shedding',
  },
  {
    key: 'shedding.stepPercent',
    env: 'SHED_STEP_PERCENT',
    parse: SHEDDING_VALUES.stepPercent,
    meaning:
      'how much further past the bound each more important priority is shed: priority p at (1 + (least − p) × step/100) × the bound',
    feature: 'load-shedding',
  },
  {
    key: 'shedding.retryAfterSec',
    env: 'SHED_RETRY_AFTER_S',
    parse: SHEDDING_VALUES.retryAfterSec,
    meaning: '`Retry-After` on a shed request, seconds',
    feature: 'load-shedding',
  },
]);

const ENV_OF = { classes: 'SHED_CLASSES', rules: 'SHED_CLASS_RULES', defaultClass: 'SHED_DEFAULT_CLASS' } as const;

/** The `shedding` group's rule (ADR 052): rules name classes, a client name cannot lift a class, a bound is set. */
export function checkSheddingSettings({ shedding }: ConfigOf<typeof SHEDDING_FIELDS>, issues: ConfigIssue[]): void {
  const { classes, rules, defaultClass } = shedding;
  for (const [option, message] of classIssues(classes, rules, defaultClass)) {
    issues.push({ field: ENV_OF[option], message });
  }
  if (Object.keys(classes).length > 0 && shedding.maxInFlight === 0 && shedding.maxEventLoopDelayMs === 0) {
    issues.push({
      field: 'SHED_MAX_IN_FLIGHT | SHED_MAX_EVENT_LOOP_DELAY_MS',
      message: 'load shedding needs a bound: set one or both',
    });
  }
}
