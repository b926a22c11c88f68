import type { Clock } from '../clock.js';

/** Where supergraphs come from: read once at startup, then polled for changes. */
export interface SupergraphSource {
  /** For events and logs: `file` (SUPERGRAPH_PATH) or `url` (SUPERGRAPH_URL). */
  readonly kind: 'file' | 'url';
  /** For startup errors and logs: the file's path, never the URL (it may carry a token). */
  readonly description: string;
  /** The first read, at startup; throws a GatewayError (SUPERGRAPH_UNREADABLE). */
  read(): Promise<string>;
  /** Reports each changed text, starting from what `read` returned. */
  watch(intervalMs: number, clock: Clock | undefined, handlers: SourceHandlers): { close(): void };
}

export interface SourceHandlers {
  onText(text: string): Promise<void>;
  /** The source could not be read this time; the caller keeps what it has. */
  onError(error: unknown): void;
}
