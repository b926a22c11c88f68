import type { GatewayConfig } from '../config/types.js';
import { fileSource } from '../supergraph/file-source.js';
import type { SupergraphSource } from '../supergraph/source.js';
import { urlSource } from '../supergraph/url-source.js';

/** SUPERGRAPH_URL when set (the parser refuses it together with SUPERGRAPH_PATH), else the file. */
export function supergraphSourceOf(config: GatewayConfig): SupergraphSource {
  const { url, path, urlTimeoutMs, urlMaxBytes } = config.supergraph;
  return url ? urlSource({ url, timeoutMs: urlTimeoutMs, maxBytes: urlMaxBytes }) : fileSource(path);
}
