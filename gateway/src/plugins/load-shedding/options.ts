import type { Clock, GatewayPlugin } from '../../plugin-sdk/index.js';
import {
  asOptionsObject,
  checkKnownKeys,
  custom,
  defaultsOf,
  integer,
  list,
  nonEmpty,
  OptionIssues,
  readValue,
  type ValueParser,
  withDefault,
} from '../../plugin-sdk/index.js';
import { classIssues, defaultClassOf, readClasses, readRule, type ShedClasses, type ShedRule } from './classes.js';

export const PLUGIN_NAME = 'load-shedding';

/**
 * The options' schemas, each with its range and default, written once: the SHED_* settings are
 * read with the same ones (config/settings/shedding.ts).
 */
export const SHEDDING_VALUES = Object.freeze({
  classes: withDefault(custom('class=priority pairs separated by commas (0 is the most important)', readClasses), {}),
  rules: withDefault(list(custom('kind:evidence=class', readRule)), []),
  defaultClass: nonEmpty,
  maxInFlight: withDefault(integer(0, 1_000_000), 0),
  maxEventLoopDelayMs: withDefault(integer(0, 60_000), 0),
  eventLoopSampleMs: withDefault(integer(50, 60_000), 500),
  stepPercent: withDefault(integer(1, 1000), 25),
  retryAfterSec: withDefault(integer(1, 3600), 2),
});
export const SHEDDING_DEFAULTS = defaultsOf(SHEDDING_VALUES);

export interface LoadSheddingOptions {
  /** Class name → priority, 0 the most important (`{ checkout: 0, web: 1, batch: 2 }`). Required. */
  readonly classes: ShedClasses;
  /**
   * Which evidence puts a request in which class (`consumer:checkout-svc=checkout`,
   * `claim:tier=gold=checkout`, `client:nightly-export=batch`, or the rules read), verified
   * ones tried first. Default: none.
   */
  readonly rules?: readonly (string | ShedRule)[];
  /** The class of a request no rule matches. Default: the least important class. */
  readonly defaultClass?: string;
  /** Operations in flight (from the start of their pipeline to their answer) at which the least important class is shed; 0: not a bound. */
  readonly maxInFlight?: number;
  /** Mean event-loop delay (ms, per sampling window) at which the least important class is shed; 0: not a bound. */
  readonly maxEventLoopDelayMs?: number;
  /** The event-loop sampling window. Default: 500 ms. */
  readonly eventLoopSampleMs?: number;
  /**
   * How much further past the bound each more important priority is shed, in percent of the
   * bound: priority p is shed at (1 + (least − p) × step / 100) × bound. Default: 25.
   */
  readonly stepPercent?: number;
  /** `Retry-After` on a shed request, seconds. Default: 2. */
  readonly retryAfterSec?: number;
  /** Reads the event-loop delay (ms) instead of Node's monitor: tests drive overload with it. */
  readonly eventLoopDelay?: () => number;
  /** The clock sampling the event-loop monitor. Default: unref'd timers. */
  readonly clock?: Clock;
  /** The gateway's plugins, told of each shed request (`load-shed` events: metrics). */
  readonly plugins?: () => readonly GatewayPlugin[];
}

const KNOWN: readonly (keyof LoadSheddingOptions)[] = [
  'classes',
  'rules',
  'defaultClass',
  'maxInFlight',
  'maxEventLoopDelayMs',
  'eventLoopSampleMs',
  'stepPercent',
  'retryAfterSec',
  'eventLoopDelay',
  'clock',
  'plugins',
];

export interface CheckedOptions {
  readonly classes: ShedClasses;
  readonly rules: readonly ShedRule[];
  readonly defaultClass: string;
  readonly maxInFlight: number;
  readonly maxEventLoopDelayMs: number;
  readonly eventLoopSampleMs: number;
  readonly stepPercent: number;
  readonly retryAfterSec: number;
}

type Values = typeof SHEDDING_VALUES;
type ValueOf<K extends keyof Values> = Values[K] extends ValueParser<infer T> ? T : never;

/** Checks every option (the settings' schemas), the classes against the rules, and that some bound is set. */
export function checkOptions(options: LoadSheddingOptions): CheckedOptions {
  const given = asOptionsObject(PLUGIN_NAME, options);
  const issues = new OptionIssues();
  checkKnownKeys(issues, given, KNOWN);
  const value = <K extends keyof Values>(name: K): ValueOf<K> => {
    const raw = given[name];
    const fallback = (SHEDDING_DEFAULTS as Record<string, unknown>)[name] as ValueOf<K>;
    if (raw === undefined) return fallback;
    const parsed = readValue(SHEDDING_VALUES[name] as ValueParser<ValueOf<K>>, raw);
    if (!parsed.ok) issues.add(name, parsed.message);
    return parsed.ok ? parsed.value : fallback;
  };
  for (const name of ['eventLoopDelay', 'plugins'] as const) {
    if (given[name] !== undefined && typeof given[name] !== 'function') issues.add(name, 'expected a function');
  }
  const classes = value('classes');
  const rules = value('rules');
  const defaultClass = given.defaultClass === undefined ? undefined : value('defaultClass');
  if (Object.keys(classes).length === 0) issues.add('classes', 'is required (at least one class)');
  for (const [option, message] of classIssues(classes, rules, defaultClass)) issues.add(option, message);
  const checked: CheckedOptions = {
    classes,
    rules,
    defaultClass: defaultClassOf(classes, defaultClass) ?? '',
    maxInFlight: value('maxInFlight'),
    maxEventLoopDelayMs: value('maxEventLoopDelayMs'),
    eventLoopSampleMs: value('eventLoopSampleMs'),
    stepPercent: value('stepPercent'),
    retryAfterSec: value('retryAfterSec'),
  };
  if (checked.maxInFlight === 0 && checked.maxEventLoopDelayMs === 0) {
    issues.add('maxInFlight', 'no bound: set maxInFlight or maxEventLoopDelayMs (or both)');
  }
  issues.throwIfAny(PLUGIN_NAME);
  return checked;
}
