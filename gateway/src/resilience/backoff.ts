/**
 * Exponential backoff with full jitter (AWS Architecture Blog, "Exponential Backoff and
 * Jitter"): the wait before retry `attempt` (1 for the first) is uniform in
 * [0, baseMs × 2^(attempt-1)]. Spreading the waits over the whole range keeps clients that
 * failed together from retrying together.
 */
export function fullJitterDelay(attempt: number, baseMs: number, random: () => number = Math.random): number {
  return random() * baseMs * 2 ** (attempt - 1);
}
