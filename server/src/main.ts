import { createLogger, GatewayError, parseConfig } from '@fedgw/gateway';
import { serveGateway } from './serve.js';
import { installShutdown } from './shutdown.js';

// The process entry point: the only module that reads process.env.
async function main(): Promise<void> {
  let config: ReturnType<typeof parseConfig>;
  try {
    config = parseConfig(process.env);
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    process.stderr.write(`${error.code}: ${error.message}\n`);
    process.exit(1);
  }
  const logger = createLogger(config);
  try {
    const running = await serveGateway(config, logger);
    installShutdown(running, logger, { graceMs: config.shutdownGraceMs, delayMs: config.shutdownDelayMs });
    logger.info(
      { url: `${running.url}${config.graphqlPath}`, runtime: config.runtime, adapter: config.adapter, env: config.env },
      'gateway listening',
    );
  } catch (error) {
    const code = error instanceof GatewayError ? error.code : undefined;
    // The cause's own code (ENOENT, EISDIR, EADDRINUSE) is what an operator acts on.
    const causeCode = (error as { cause?: { code?: unknown } })?.cause?.code;
    logger.fatal({ err: error, code, ...(causeCode !== undefined && { causeCode }) }, 'gateway failed to start');
    logger.flush?.();
    process.exitCode = 1;
    // Give a pretty-print worker time to write the fatal line.
    setTimeout(() => process.exit(1), 100).unref();
  }
}

await main();
