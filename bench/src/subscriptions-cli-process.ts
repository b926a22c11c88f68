// Process entry: node bench/dist/subscriptions-cli.js --help   (pnpm bench:subscriptions)
import { runCli } from './cli-entry.js';
import { repoPath } from './paths.js';
import { parseSubscriptionOptions, SUBSCRIPTIONS_HELP, type SubscriptionOptions } from './subscriptions/options.js';
import { writeSubscriptionReport } from './subscriptions/report.js';
import { runSubscriptions } from './subscriptions/run-subscriptions.js';

runCli<SubscriptionOptions>({
  script: 'subscriptions-cli.js',
  name: 'subscription bench',
  help: SUBSCRIPTIONS_HELP,
  parse: parseSubscriptionOptions,
  async run(options, invocation) {
    const results = await runSubscriptions(options, invocation);
    const files = await writeSubscriptionReport(results, options.out ?? repoPath('bench', 'results', results.runId));
    console.log(`Results: ${files.json}\nReport:  ${files.markdown}`);
    return results.rows.some((row) => row.status === 'failed') ? 1 : 0;
  },
});
