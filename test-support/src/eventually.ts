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
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/** Lets several poll intervals pass, before asserting that nothing (more) was reported. */
export function settle(ms = 200): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
