import type { Clock } from '@fedgw/gateway/contract';
import { realClock } from '../clock.js';

/**
 * On drain the gateway completes every subscription; the transports then close their
 * connections. Closing at once would cut the `complete` messages still being written, so each
 * connection closes once it has no operation left, and any still busy after `graceMs` anyway.
 * A connection still open `graceMs` after its close (a WebSocket peer that never answers the
 * close handshake, whose own timeout is 30 s) is cut, so the drain ends in time.
 */
export function closeWhenIdle<T>(
  connections: () => Iterable<T>,
  isIdle: (connection: T) => boolean,
  close: (connection: T) => void,
  cut: (connection: T) => void,
  graceMs = 2000,
  clock: Clock = realClock,
): void {
  const deadline = clock.now() + graceMs;
  const closing = new Set<T>();
  const sweep = () => {
    const last = clock.now() >= deadline;
    let busy = 0;
    for (const connection of connections()) {
      if (closing.has(connection)) continue;
      if (last || isIdle(connection)) {
        closing.add(connection);
        close(connection);
      } else busy += 1;
    }
    if (busy > 0) clock.after(10, sweep);
  };
  setImmediate(sweep);
  // Whatever is still open once everything had its grace to close.
  clock.after(2 * graceMs, () => {
    for (const connection of connections()) cut(connection);
  });
}
