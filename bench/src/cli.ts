// Process entry: node bench/dist/cli.js --help
import { killAllChildren } from './child.js';
import { HELP, parseOptions } from './options.js';
import { repoPath } from './paths.js';
import { formatSummaryTable, writeReport } from './report/index.js';
import { runBench, runIdOf } from './run.js';

async function main(): Promise<number> {
  let options: ReturnType<typeof parseOptions>;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  // No target may outlive the harness, whatever ends it.
  process.on('exit', killAllChildren);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      killAllChildren();
      process.exit(130);
    });
  }

  const script = process.env.npm_lifecycle_event;
  const invocation = `node bench/dist/cli.js ${process.argv.slice(2).join(' ')}`.trim();
  const results = await runBench(options, script ? `pnpm ${script} (${invocation})` : invocation);
  const dir = options.out ?? repoPath('bench', 'results', runIdOf(new Date(results.startedAt)));
  const files = await writeReport(results, dir);
  console.log(`\n${formatSummaryTable(results)}\n`);
  console.log(`Results: ${files.json}\nReport:  ${files.markdown}\n         ${files.html}`);
  const broken = results.scenarios
    .flatMap((s) => s.rows)
    .filter((r) => r.status === 'failed' || r.status === 'wrong-answer');
  if (broken.length > 0) console.log(`${broken.length} row(s) failed or answered wrongly: see the report.`);
  return broken.length > 0 ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    killAllChildren();
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
