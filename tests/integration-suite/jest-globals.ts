// Lets @apollo/server-integration-testsuite (written for jest) run under vitest.
import {
  afterAll as vitestAfterAll,
  afterEach as vitestAfterEach,
  beforeAll as vitestBeforeAll,
  beforeEach as vitestBeforeEach,
} from 'vitest';

export { describe, expect, it, test, vi as jest } from 'vitest';

type DoneCallback = (error?: unknown) => void;
type JestHookFn = (() => unknown) | ((done: DoneCallback) => void);
type VitestHook = (fn: () => unknown, timeout?: number) => void;

/**
 * jest hands a hook that declares a parameter a `done` callback and waits for it; vitest
 * passes its test context there instead, whose call throws "done() callback is deprecated".
 * Such hooks (the testsuite's usage-reporting `afterEach(done => ...)`) become promises.
 */
function jestHook(register: VitestHook) {
  return (fn: JestHookFn, timeout?: number): void => {
    if (fn.length === 0) {
      register(fn as () => unknown, timeout);
      return;
    }
    register(
      () =>
        new Promise<void>((resolve, reject) => {
          (fn as (done: DoneCallback) => void)((error?: unknown) => (error ? reject(error) : resolve()));
        }),
      timeout,
    );
  };
}

export const beforeAll = jestHook(vitestBeforeAll);
export const afterAll = jestHook(vitestAfterAll);
export const beforeEach = jestHook(vitestBeforeEach);
export const afterEach = jestHook(vitestAfterEach);
