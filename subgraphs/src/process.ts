import type { SubgraphDefinition } from './definition.js';
import { parseSubgraphEnv } from './env.js';
import { startSubgraph } from './serve.js';

/**
 * The body of every `<name>/main.ts`: parse the environment, listen, announce readiness
 * with one line, and close cleanly (exit 0) on SIGTERM/SIGINT: close() also ends WebSocket
 * clients, which would otherwise hold the HTTP server open.
 */
export async function runSubgraphProcess(definition: SubgraphDefinition): Promise<void> {
  const { name } = definition;
  const parsed = parseSubgraphEnv(name, definition.defaultPort, process.env);
  if (!parsed.ok) {
    console.error(`${name} subgraph: invalid environment:\n  ${parsed.errors.join('\n  ')}`);
    process.exit(1);
  }

  let running: Awaited<ReturnType<typeof startSubgraph>>;
  try {
    running = await startSubgraph({ ...definition, ...parsed.env });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    console.error(`${error instanceof Error ? error.message : String(error)}${cause}`);
    process.exit(1);
  }
  const subscriptions = running.subscriptionUrl ? ` (subscriptions: ${running.subscriptionUrl})` : '';
  console.log(`${name} subgraph ready at ${running.url}${subscriptions}`);

  let closing = false;
  const shutdown = () => {
    // Ctrl-C reaches both run-all and its children, so a second signal is expected: ignore it.
    if (closing) return;
    closing = true;
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`${name} subgraph: error while closing`, error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}
