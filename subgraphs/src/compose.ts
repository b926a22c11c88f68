/**
 * CLI: node dist/compose.js [--write | --check]
 *   (no flag)  print the composed supergraph to stdout
 *   --write    write supergraph.graphql at the repository root, and the deployment files
 *              derived from it and from catalog.ts (deployment-files.ts)
 *   --check    exit 1 when any of those differs from what a fresh composition writes
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { derivedFiles, readOrNull, staleDerivedFiles } from './deployment-files.js';
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
    for (const { url, render } of derivedFiles(result.supergraphSdl)) {
      const current = readOrNull(url);
      const next = render(current);
      if (next === current) continue;
      writeFileSync(url, next);
      console.log(`wrote ${url.pathname}`);
    }
  } else {
    // A missing file is just as stale.
    const stale = readOrNull(SUPERGRAPH_PATH) === result.supergraphSdl ? [] : ['supergraph.graphql'];
    stale.push(...staleDerivedFiles(result.supergraphSdl));
    if (stale.length > 0) {
      console.error(`stale: ${stale.join(', ')}: run pnpm supergraph`);
      return 1;
    }
  }
  return 0;
}

// Run only as the process entry, so importing composeSupergraph from here has no effects.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
