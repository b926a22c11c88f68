/**
 * CLI: node dist/compose.js [--write | --check]
 *   (no flag)  print the composed supergraph to stdout
 *   --write    write supergraph.graphql at the repository root
 *   --check    exit 1 when the checked-in file differs from a fresh composition
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { composeSupergraph, SUPERGRAPH_PATH } from './supergraph.js';

export { composeSupergraph } from './supergraph.js';

function main(args: string[]): number {
  const mode = args[0] ?? '--print';
  if (args.length > 1 || !['--print', '--write', '--check'].includes(mode)) {
    console.error('usage: node dist/compose.js [--write | --check]');
    return 1;
  }
  const result = composeSupergraph();
  if ('errors' in result) {
    console.error('supergraph composition failed:');
    for (const error of result.errors) console.error(`  ${error.code}: ${error.message}`);
    return 1;
  }
  if (mode === '--print') {
    process.stdout.write(result.supergraphSdl);
  } else if (mode === '--write') {
    writeFileSync(SUPERGRAPH_PATH, result.supergraphSdl);
    console.log(`wrote ${SUPERGRAPH_PATH.pathname}`);
  } else if (readCurrent() !== result.supergraphSdl) {
    console.error('supergraph.graphql is stale: run pnpm supergraph');
    return 1;
  }
  return 0;
}

function readCurrent(): string | null {
  try {
    return readFileSync(SUPERGRAPH_PATH, 'utf8');
  } catch {
    return null; // a missing file is just as stale
  }
}

// Run only as the process entry, so importing composeSupergraph from here has no effects.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
