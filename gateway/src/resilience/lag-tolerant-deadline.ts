/** What `withinDeadline` resolves to when the deadline passed first. */
export const TIMED_OUT: unique symbol = Symbol('timed out');

/**
 * `promise`, or TIMED_OUT after `ms`. The verdict waits one turn past the timer (setImmediate
 * runs after the event loop's I/O phase): when the gateway's own loop lagged past the deadline,
 * the answer may have arrived meanwhile, and a busy gateway must not count that as its store
 * being slow (and trip a breaker just when it is busiest). A rejection of `promise` rejects.
 */
export function withinDeadline<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => setImmediate(() => resolve(TIMED_OUT)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
