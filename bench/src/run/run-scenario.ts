import { checkAnswers, checkWorkloadAnswers } from '../load/answer-check.js';
import type { ProcessGroup } from '../measure/cpu-groups.js';
import { measureRow } from '../measure/measure-row.js';
import type { SinkCounts } from '../observe/otlp-sink.js';
import { checkLimitInOwnProcess, checkSetup, subgraphRequestTotals } from '../targets/setup-check.js';
import type { RunningTarget, TargetEnvironment } from '../targets/start-target.js';
import { startTarget } from '../targets/start-target.js';
import type { RowPlan, ScenarioPlan } from './plan.js';
import type { Progress } from './progress.js';
import type { RowResult, ScenarioResult } from './results.js';

/** What every scenario shares: the running subgraphs, ports, CPU layout, the Router binary. */
export interface RunContext {
  readonly targetEnvironment: (row: RowPlan) => Promise<TargetEnvironment>;
  /** The groups measured besides the target (subgraphs, load generator, Redis when running). */
  readonly otherGroups: () => ProcessGroup[];
  readonly targetGroup: (target: RunningTarget) => ProcessGroup | null;
  /** The OTLP sink's counts (tracing setups); throws when no sink runs. */
  readonly sinkCounts?: () => Promise<SinkCounts>;
  readonly cpusIn: (list: string) => number;
  readonly userIds: readonly string[];
  readonly progress: Progress;
}

/**
 * Runs a scenario's rows in order. Consecutive rows with the same target and setup share one
 * process, started once, whose answers and setup (refusals, headers, rate limit) are checked
 * before any timing.
 */
export async function runScenario(plan: ScenarioPlan, context: RunContext): Promise<ScenarioResult> {
  const rows: RowResult[] = [];
  const done = (result: RowResult) => {
    rows.push(result);
    context.progress.row(plan.id, result);
  };
  for (const group of consecutiveGroups(plan.rows)) await runGroup(plan.id, group, context, done);
  const finished = plan.finish ? plan.finish(rows) : rows;
  return { id: plan.id, title: plan.title, description: plan.description, kind: plan.kind, rows: finished };
}

async function runGroup(
  scenario: string,
  group: readonly RowPlan[],
  context: RunContext,
  done: (row: RowResult) => void,
): Promise<void> {
  const first = group[0] as RowPlan;
  const all = (status: RowResult['status'], message: string | undefined) => {
    for (const row of group) done(unmeasured(row, status, message));
  };
  if (first.skip) return all(first.skip.status, first.skip.message);

  let target: RunningTarget;
  // External targets are already running: no port, subgraphs or pinning of ours.
  let environment: TargetEnvironment | null = null;
  try {
    if (first.target.kind !== 'external') environment = await context.targetEnvironment(first);
    const limitProblem = await checkLimitInOwnProcess(first, environment);
    if (limitProblem) return all('wrong-answer', limitProblem);
    target = await startTarget(first.target, first.setup, environment);
  } catch (error) {
    // The full text (with the process's last output) goes to the console; the row keeps the gist.
    context.progress.info(`${first.target.name} did not start: ${errorText(error)}`);
    return all('failed', `did not start: ${firstLine(error)}`);
  }
  try {
    const queries = [...new Set(group.map((row) => row.query))];
    const { workload } = first.setup;
    const check = workload
      ? await checkWorkloadAnswers(target.url, workload, first.setup.headers)
      : await checkAnswers({
          url: target.url,
          queries,
          userIds: context.userIds,
          headers: first.setup.headers,
          ...(first.setup.expectHeaders ? { expectHeaders: first.setup.expectHeaders } : {}),
        });
    if (!check.ok) return all('wrong-answer', check.message);
    const subgraphUrls = environment ? Object.values(environment.subgraphUrls) : [];
    const metricsPort = environment?.setupContext.metricsPort;
    const setupCheck = await checkSetup(target.url, first.setup, first.query, subgraphUrls, {
      ...(metricsPort !== undefined ? { metricsPort } : {}),
      ...(context.sinkCounts ? { sinkCounts: context.sinkCounts } : {}),
    });
    if (!setupCheck.ok) return all('wrong-answer', setupCheck.message);

    const targetGroup = context.targetGroup(target);
    // A workload's rows (§G) report subgraph requests per client request, read from our subgraphs.
    const subgraphRequests =
      workload && environment && subgraphUrls.length > 0
        ? () => subgraphRequestTotals((environment as TargetEnvironment).subgraphUrls)
        : undefined;
    for (const row of group) {
      const groups = [...(targetGroup ? [targetGroup] : []), ...context.otherGroups()];
      try {
        const live = context.progress.live(scenario, `${row.target.name} · ${row.variant}`, row.durationSec);
        done(await measureRow(row, target, groups, context.cpusIn, live, subgraphRequests));
      } catch (error) {
        done(unmeasured(row, 'failed', errorText(error)));
      }
    }
  } finally {
    await target.stop();
  }
}

/** Splits rows into runs of the same target and setup (one process each). */
function consecutiveGroups(rows: readonly RowPlan[]): RowPlan[][] {
  const groups: RowPlan[][] = [];
  for (const row of rows) {
    const last = groups.at(-1)?.[0];
    if (last && last.target.name === row.target.name && last.setup.key === row.setup.key) groups.at(-1)?.push(row);
    else groups.push([row]);
  }
  return groups;
}

function unmeasured(row: RowPlan, status: RowResult['status'], message: string | undefined): RowResult {
  return {
    target: row.target.name,
    variant: row.variant,
    status,
    ...(message ? { message } : {}),
    ...(row.load.kind === 'closed' ? { connections: row.load.connections } : { rate: row.load.rate }),
  };
}

function firstLine(error: unknown): string {
  return errorText(error).split('\n')[0] ?? '';
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
