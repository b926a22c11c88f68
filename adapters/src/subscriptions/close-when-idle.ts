/**
 * On drain the gateway completes every subscription; the transports then close their
 * connections. Closing at once would cut the `complete` messages still being written, so each
 * connection closes once it has no operation left, and any still busy after `graceMs` anyway.
 */
export function closeWhenIdle<T>(
  connections: () => Iterable<T>,
  isIdle: (connection: T) => boolean,
  close: (connection: T) => void,
  graceMs = 2000,
): void {
  const deadline = Date.now() + graceMs;
  const sweep = () => {
    const last = Date.now() >= deadline;
    let busy = 0;
    for (const connection of connections()) {
      if (last || isIdle(connection)) close(connection);
      else busy += 1;
    }
    if (busy > 0) setTimeout(sweep, 10);
  };
  setImmediate(sweep);
}
