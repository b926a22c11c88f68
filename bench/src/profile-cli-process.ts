// Process entry: node bench/dist/profile-cli.js --help   (pnpm bench:profile)
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from './cli-entry.js';
import { repoPath } from './paths.js';
import { PROFILE_HELP, type ProfileOptions, parseProfileOptions } from './profile/options.js';
import { profileMarkdown } from './profile/report.js';
import { runProfile } from './profile/run-profile.js';
import { runIdOf } from './run/run.js';

runCli<ProfileOptions>({
  script: 'profile-cli.js',
  name: 'profile',
  help: PROFILE_HELP,
  parse: parseProfileOptions,
  async run(options, invocation) {
    const out = options.out ?? repoPath('bench', 'results', `${runIdOf(new Date())}-profile`);
    await mkdir(out, { recursive: true });
    const run = await runProfile(options, out, (line) => console.log(line));
    await writeFile(join(out, 'summary.json'), `${JSON.stringify(run, null, 2)}\n`);
    await writeFile(join(out, 'summary.md'), profileMarkdown(run, invocation));
    console.log(`${run.rps} answers/s, gateway ${run.gatewayCpuSecPer1k} CPU-s/1k, peak RSS ${run.peakRssMb} MB`);
    for (const part of run.summary.categories.slice(0, 8))
      console.log(`  ${part.percent.toFixed(1).padStart(5)}%  ${part.name}`);
    console.log(`Summary: ${join(out, 'summary.md')}\nProfile: ${run.profilePath}`);
    return run.failed > 0 ? 1 : 0;
  },
});
