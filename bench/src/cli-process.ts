// Process entry: node bench/dist/cli.js --help
import { runCli } from './cli-entry.js';
import { repoPath } from './paths.js';
import { formatSummaryTable, writeReport } from './report/index.js';
import { type BenchOptions, HELP, parseOptions } from './run/options.js';
import { runBench, runIdOf } from './run/run.js';

runCli<BenchOptions>({
  script: 'cli.js',
  name: 'bench',
  help: HELP,
  parse: parseOptions,
  async run(options, invocation) {
    const results = await runBench(options, invocation);
    const dir = options.out ?? repoPath('bench', 'results', runIdOf(new Date(results.startedAt)));
    const files = await writeReport(results, dir);
    console.log(`\n${formatSummaryTable(results)}\n`);
    console.log(`Results: ${files.json}\nReport:  ${files.markdown}\n         ${files.html}`);
    const broken = results.scenarios
      .flatMap((s) => s.rows)
      .filter((r) => r.status === 'failed' || r.status === 'wrong-answer');
    if (broken.length > 0) console.log(`${broken.length} row(s) failed or answered wrongly: see the report.`);
    return broken.length > 0 ? 1 : 0;
  },
});
