import type { RequestHandler } from 'express';

// What express.json(), express.urlencoded(), express.text() and express.raw() are named: Nest's
// ExpressAdapter registers the first two app-wide (100 kB) unless the app opts out.
const BODY_PARSERS = new Set(['jsonParser', 'urlencodedParser', 'textParser', 'rawParser']);

interface Layer {
  name?: string;
  handle: RequestHandler;
}

/**
 * Makes the body parsers a host app registered before the gateway skip the gateway's path, so
 * the gateway's own parsing (its BODY_LIMIT, its coded errors) applies there and the host's
 * parsing everywhere else. Without this, the host's parser reads the body first and the
 * gateway's limit never runs. `host` is an Express app (its `router`) or a Router.
 */
export function spareGatewayPath(host: unknown, gatewayPath: string): void {
  const router = (host as { router?: { stack?: Layer[] } }).router ?? host;
  const stack = (router as { stack?: Layer[] }).stack ?? [];
  const path = normalize(gatewayPath);
  for (const layer of stack) {
    if (!layer.name || !BODY_PARSERS.has(layer.name)) continue;
    const parse = layer.handle;
    // Same arity as before (three parameters): Express tells error handlers by their length.
    layer.handle = (req, res, next) => (normalize(req.path) === path ? next() : parse(req, res, next));
  }
}

// The gateway's route matches as Express routes do by default: any case, with or without a trailing slash.
function normalize(path: string): string {
  return path.toLowerCase().replace(/\/+$/, '');
}
