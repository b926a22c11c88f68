import { readFile } from 'node:fs/promises';
import { GatewayError, GatewayErrorCode } from '../errors.js';
import { pollFile } from '../watch/poll-file.js';
import type { SupergraphSource } from './source.js';

/** SUPERGRAPH_PATH: a file, polled by `stat` (a ConfigMap's symlink swap included). */
export function fileSource(path: string): SupergraphSource {
  let initialText: string | undefined;
  return {
    kind: 'file',
    description: `at ${path}`,
    async read() {
      try {
        initialText = await readFile(path, 'utf8');
        return initialText;
      } catch (error) {
        throw new GatewayError(GatewayErrorCode.SUPERGRAPH_UNREADABLE, `cannot read the supergraph at ${path}`, {
          cause: error,
        });
      }
    },
    watch(intervalMs, clock, { onText, onError }) {
      return pollFile({ path, intervalMs, initialText, onChange: onText, onError, ...(clock ? { clock } : {}) });
    },
  };
}
