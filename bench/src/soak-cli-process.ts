// Process entry: node bench/dist/soak-cli.js --help   (pnpm bench:soak)
import { runCli } from './cli-entry.js';
import { repoPath } from './paths.js';
import { parseSoakOptions, SOAK_HELP, type SoakOptions } from './soak/options.js';
import { writeSoakReport } from './soak/report.js';
import { runSoak } from './soak/run-soak.js';

runCli<SoakOptions>({
  script: 'soak-cli.js',
  name: 'soak',
  help: SOAK_HELP,
  parse: parseSoakOptions,
  async run(options, invocation) {
    const results = await runSoak(options, invocation);
    const files = await writeSoakReport(results, options.out ?? repoPath('bench', 'results', results.runId));
    console.log(`\nVerdict: ${results.verdict.pass ? 'pass' : 'fail'}`);
    for (const finding of results.verdict.findings) console.log(`- ${finding}`);
    console.log(`Results: ${files.json}\nReport:  ${files.markdown}`);
    return results.verdict.pass ? 0 : 1;
  },
});
