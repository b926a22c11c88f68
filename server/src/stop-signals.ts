/** The signals that ask the process to stop: each one drains (SIGHUP too: a closed terminal, `kill -HUP`). */
export const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

export function isStopSignal(signal: string | null | undefined): signal is StopSignal {
  return (STOP_SIGNALS as readonly (string | null | undefined)[]).includes(signal);
}

export interface StopSignalHandlers {
  /** The first stop signal: start the graceful stop. */
  stop(signal: StopSignal): void;
  /** A second SIGINT while stopping: stop waiting. */
  force(signal: StopSignal): void;
}

/**
 * The one reading of stop signals, for a single process and a cluster primary alike: the first
 * one stops gracefully; after it, only a second SIGINT (a second Ctrl-C) means "stop waiting".
 * Process managers often deliver SIGTERM twice (to the group and to the child), and one Ctrl-C
 * under `pnpm start` arrives as SIGINT from the terminal and SIGTERM from the launcher, in
 * either order: none of those may cut a drain short. `source`: the process (a test gives an emitter).
 * Returns a function that removes the listeners.
 */
export function onStopSignals(
  handlers: StopSignalHandlers,
  source: Pick<NodeJS.EventEmitter, 'on' | 'off'> = process,
): () => void {
  let stopping = false;
  let sigints = 0;
  const onSignal = (signal: StopSignal) => {
    if (signal === 'SIGINT') sigints += 1;
    if (!stopping) {
      stopping = true;
      handlers.stop(signal);
    } else if (sigints > 1) handlers.force(signal);
  };
  for (const signal of STOP_SIGNALS) source.on(signal, onSignal);
  return () => {
    for (const signal of STOP_SIGNALS) source.off(signal, onSignal);
  };
}
