// Process entry: node bench/dist/soak-cli.js --help   (pnpm bench:soak)
import { killAllChildren } from './child.js';
import { repoPath } from './paths.js';
import { parseSoakOptions, SOAK_HELP, type SoakOptions } from './soak/options.js';
import { writeSoakReport } from './soak/report.js';
import { runSoak } from './soak/run-soak.js';

async function main(): Promise<number> {
  let options: SoakOptions | 'help';
  try {
    options = parseSoakOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${SOAK_HELP}`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(SOAK_HELP);
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
  const invocation = `node bench/dist/soak-cli.js ${process.argv.slice(2).join(' ')}`.trim();
  const results = await runSoak(options, script ? `pnpm ${script} (${invocation})` : invocation);
  const files = await writeSoakReport(results, options.out ?? repoPath('bench', 'results', results.runId));
  console.log(`\nVerdict: ${results.verdict.pass ? 'pass' : 'fail'}`);
  for (const finding of results.verdict.findings) console.log(`- ${finding}`);
  console.log(`Results: ${files.json}\nReport:  ${files.markdown}`);
  return results.verdict.pass ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    killAllChildren();
    process.stderr.write(`soak failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
