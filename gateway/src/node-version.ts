/**
 * The oldest Node.js major the project runs on: package.json `engines` (a test keeps the two
 * equal). This file imports nothing, so an entry point can run the check before loading any
 * module that would crash on an older Node (undici does, on Node 20, with a stack trace).
 */
export const REQUIRED_NODE_MAJOR = 24;

/**
 * On an older Node, says in one line what was found, what is needed and how to run with the
 * project's Node, and exits 1. `entry` is the file the user ran; `howToRun` the command to use.
 */
export function exitOnUnsupportedNode(entry: string, howToRun: string): void {
  const found = process.versions.node;
  if (Number(found.split('.')[0]) >= REQUIRED_NODE_MAJOR) return;
  process.stderr.write(
    `${entry} needs Node.js >= ${REQUIRED_NODE_MAJOR} but this is Node.js ${found} (${process.execPath}); ` +
      `run it with the project's Node: ${howToRun}\n`,
  );
  process.exit(1);
}
