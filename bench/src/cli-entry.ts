import { killAllChildren } from './targets/child.js';

export interface CliEntry<T> {
  /** `dist/<script>.js`, named in the invocation line the report records. */
  script: string;
  /** Said before a crash's stack: `bench failed: …`. */
  name: string;
  help: string;
  /** Throws an Error naming the bad option; `help` for -h. */
  parse(argv: readonly string[]): T | 'help';
  /** Runs with the parsed options and the command line to record; resolves to the exit code. */
  run(options: T, invocation: string): Promise<number>;
}

/**
 * A bench process entry: options (exit 2 with the help on a bad one), children killed
 * whatever ends the process, the invocation as the user typed it (`pnpm bench (node …)`),
 * and a crash reported with its stack and exit code 1.
 */
export function runCli<T>(entry: CliEntry<T>): void {
  main(entry).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      killAllChildren();
      process.stderr.write(
        `${entry.name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exitCode = 1;
    },
  );
}

async function main<T>(entry: CliEntry<T>): Promise<number> {
  const argv = process.argv.slice(2);
  let options: T | 'help';
  try {
    options = entry.parse(argv);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${entry.help}`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(entry.help);
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
  const invocation = `node bench/dist/${entry.script} ${argv.join(' ')}`.trim();
  return entry.run(options, script ? `pnpm ${script} (${invocation})` : invocation);
}
