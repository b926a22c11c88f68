// Process entry: node bench/dist/heap-cli.js --help   (pnpm bench:heap)
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from './cli-entry.js';
import { HEAP_HELP, type HeapOptions, parseHeapOptions } from './heap/options.js';
import { heapMarkdown } from './heap/report.js';
import { runHeap } from './heap/run-heap.js';
import { repoPath } from './paths.js';
import { runIdOf } from './run/run.js';

runCli<HeapOptions>({
  script: 'heap-cli.js',
  name: 'heap',
  help: HEAP_HELP,
  parse: parseHeapOptions,
  async run(options, invocation) {
    const out = options.out ?? repoPath('bench', 'results', `${runIdOf(new Date())}-heap`);
    await mkdir(out, { recursive: true });
    const run = await runHeap(options, out, (line) => console.log(line));
    await writeFile(join(out, 'summary.json'), `${JSON.stringify(run, null, 2)}\n`);
    await writeFile(join(out, 'summary.md'), heapMarkdown(run, invocation));
    console.log(`Summary: ${join(out, 'summary.md')}`);
    return run.queries.some((query) => query.failed > 0) ? 1 : 0;
  },
});
