import { describe, expect, it } from 'vitest';
import { noAddon } from '../src/executor/hive-plan/hive-planner.js';

// The default planner is a native addon for glibc Linux and macOS (ADR 062): where it does not
// load, startup must say which setting to change, not fail on a module path.
describe('QUERY_PLANNER=hive without its addon', () => {
  it('names the platform, the loader’s reason and QUERY_PLANNER=apollo', () => {
    const message = noAddon(
      new Error("Cannot find module './hive_router_query_planner.linux-x64-musl.node'\nRequire stack: …"),
    );
    expect(message).toContain(`${process.platform}-${process.arch}`);
    expect(message).toContain('linux-x64-musl.node');
    expect(message).not.toContain('Require stack');
    expect(message).toMatch(/set QUERY_PLANNER=apollo$/);
  });
});
