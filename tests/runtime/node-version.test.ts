// The project runs on Node 24 (root devDependency `node`, whose binary pnpm puts first on PATH for
// every script), whatever node the machine has: this fails if a test worker, or a child started the
// way the tests and bench start them (process.execPath), is on another version.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';

// .ci/run also runs the suite on the next LTS line and says which (EXPECTED_NODE_VERSION).
const pinned =
  process.env.EXPECTED_NODE_VERSION ??
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).devDependencies.node as string);

describe('runtime', () => {
  it('test workers run on the pinned Node', () => {
    expect(process.version).toBe(`v${pinned}`);
  });

  it('children started with process.execPath run on the same Node', () => {
    const version = execFileSync(process.execPath, ['-p', 'process.version'], { encoding: 'utf8' }).trim();
    expect(version).toBe(`v${pinned}`);
  });

  // Only under a pnpm script (`pnpm test`): an editor running vitest directly may not put
  // node_modules/.bin on the PATH.
  it.runIf(process.env.npm_lifecycle_event)('`node` on the PATH of pnpm scripts is the pinned one', () => {
    const version = execFileSync('node', ['-p', 'process.version'], { encoding: 'utf8' }).trim();
    expect(version).toBe(`v${pinned}`);
  });
});
