import type { Parsed } from '../../plugin-sdk/index.js';

/** Class name → priority (0 is the most important). */
export type ShedClasses = Readonly<Record<string, number>>;

/**
 * Which evidence puts a request in a class. `consumer` (the API key's consumer) and `claim` (a
 * JWT claim) are verified by their plugins; `client` is the `apollographql-client-name` header,
 * which anyone can send, so it may only lower a request's class (see `classIssues`).
 */
export type ShedRule =
  | { readonly kind: 'consumer' | 'client'; readonly value: string; readonly className: string }
  | { readonly kind: 'claim'; readonly claim: string; readonly value: string; readonly className: string };

const MAX_PRIORITY = 99;
const NAME = /^[A-Za-z0-9_.-]+$/;

/** `checkout=0,web=1,batch=2` (or a JSON object `{ "checkout": 0 }` in the config file). */
export function readClasses(raw: unknown): Parsed<Record<string, number>> {
  let entries: [string, unknown][];
  if (typeof raw === 'string') {
    entries = raw
      .split(',')
      .filter((part) => part.trim() !== '')
      .map((part) => {
        const at = part.indexOf('=');
        return at < 0 ? [part.trim(), undefined] : [part.slice(0, at).trim(), part.slice(at + 1).trim()];
      });
  } else if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    entries = Object.entries(raw);
  } else {
    return { ok: false, message: 'expected class=priority pairs separated by commas' };
  }
  const classes: Record<string, number> = {};
  for (const [name, value] of entries) {
    const priority = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
    if (!NAME.test(name)) return { ok: false, message: `"${name}" is not a class name (letters, digits, _ . -)` };
    if (!Number.isInteger(priority) || priority < 0 || priority > MAX_PRIORITY || value === '') {
      return { ok: false, message: `${name}: expected a priority from 0 (most important) to ${MAX_PRIORITY}` };
    }
    if (name in classes) return { ok: false, message: `${name} is named twice` };
    classes[name] = priority;
  }
  return { ok: true, value: classes };
}

/** `consumer:checkout-svc=checkout`, `claim:tier=gold=checkout`, `client:web-app=web`. */
export function readRule(raw: unknown): Parsed<ShedRule> {
  const bad = (why: string): Parsed<ShedRule> => ({
    ok: false,
    message: `${String(raw)}: ${why} (expected consumer:<name>=<class>, claim:<claim>=<value>=<class> or client:<name>=<class>)`,
  });
  if (isRule(raw)) return { ok: true, value: raw };
  if (typeof raw !== 'string') return bad('not a string');
  const colon = raw.indexOf(':');
  const lastEquals = raw.lastIndexOf('=');
  if (colon < 0 || lastEquals < colon) return bad('no kind or no class');
  const kind = raw.slice(0, colon).trim();
  const match = raw.slice(colon + 1, lastEquals).trim();
  const className = raw.slice(lastEquals + 1).trim();
  if (className === '' || match === '') return bad('empty');
  if (kind === 'consumer' || kind === 'client') {
    if (match.includes('=')) return bad(`a ${kind} name has no "="`);
    return { ok: true, value: { kind, value: match, className } };
  }
  if (kind === 'claim') {
    const equals = match.indexOf('=');
    if (equals <= 0 || equals === match.length - 1) return bad('a claim rule names the claim and its value');
    return {
      ok: true,
      value: { kind, claim: match.slice(0, equals), value: match.slice(equals + 1), className },
    };
  }
  return bad(`unknown kind "${kind}"`);
}

/** The class a request gets when no rule matches: the given one, else the least important. */
export function defaultClassOf(classes: ShedClasses, given: string | undefined): string | undefined {
  if (given !== undefined) return given;
  let least: string | undefined;
  for (const [name, priority] of Object.entries(classes)) {
    if (least === undefined || priority > (classes[least] as number)) least = name;
  }
  return least;
}

/**
 * What is wrong with a set of classes and rules, as [option, message] pairs: an unknown class,
 * and a rule on self-declared evidence (`client:`) that would put a request above the default
 * class. Anyone can send any client name, so such a rule would let any client claim it.
 */
export function classIssues(
  classes: ShedClasses,
  rules: readonly ShedRule[],
  defaultClass: string | undefined,
): [option: 'classes' | 'rules' | 'defaultClass', message: string][] {
  const issues: ['classes' | 'rules' | 'defaultClass', string][] = [];
  // No classes: shedding is off, and a rule set anyway is only a warning (ADR 016).
  if (Object.keys(classes).length === 0) return issues;
  if (defaultClass !== undefined && !(defaultClass in classes)) {
    issues.push(['defaultClass', `${defaultClass} is not one of the classes (${Object.keys(classes).join(', ')})`]);
    return issues;
  }
  const floor = classes[defaultClassOf(classes, defaultClass) as string] as number;
  for (const rule of rules) {
    const priority = classes[rule.className];
    if (priority === undefined) {
      issues.push(['rules', `${rule.className} is not one of the classes (${Object.keys(classes).join(', ')})`]);
    } else if (rule.kind === 'client' && priority < floor) {
      issues.push([
        'rules',
        `client:${rule.value}=${rule.className}: a client name is self-declared (any client can send it), so it may only ` +
          `give a class at or below the default class's priority (${floor}); use a verified source (consumer:, claim:)`,
      ]);
    }
  }
  return issues;
}

/** A rule already read (the config hands the plugin what the setting parsed). */
function isRule(raw: unknown): raw is ShedRule {
  if (typeof raw !== 'object' || raw === null) return false;
  const rule = raw as Record<string, unknown>;
  const strings = (...keys: string[]) => keys.every((key) => typeof rule[key] === 'string' && rule[key] !== '');
  return rule.kind === 'claim'
    ? strings('claim', 'value', 'className')
    : (rule.kind === 'consumer' || rule.kind === 'client') && strings('value', 'className');
}
