/**
 * Retries `check` until it stops throwing; gives up (rethrowing its last error) after
 * `timeoutMs`. A bound on a wait for something asynchronous (a poll, a reload), not a timing.
 */
export async function eventually(check: () => unknown | Promise<unknown>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10)); // poll: `check`, until it passes
    }
  }
}

/**
 * Waits a set time: for the few waits with no event to wait on, each explained where it is
 * called, after `// fixed wait:` (tests/layering/fixed-waits.test.ts counts them against a
 * budget). Before writing one, look for the event: a log line (`untilLog`), a socket's
 * 'close', a request reaching a test server, a clock to pass (`manualClock`, a `now` option).
 */
export function fixedWait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
