import { ROOT, spawnInGroup } from '@fedgw/test-support';

/** Runs one compiled bench script (`bench/dist/<script>`, built by `pnpm build`) to its end: exit code and all output. */
export function runScript(
  script: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawnInGroup(process.execPath, [`bench/dist/${script}`, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('exit', (code) => resolve({ code, output }));
  });
}
