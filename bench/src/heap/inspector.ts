import WebSocket from 'ws';

/**
 * A minimal Chrome DevTools Protocol client for a process started with `--inspect=host:port`:
 * enough to drive its heap profiler (sampling, snapshots, a forced collection).
 */
export class Inspector {
  readonly #socket: WebSocket;
  readonly #pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  readonly #listeners = new Map<string, (params: unknown) => void>();
  #nextId = 0;

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as {
        id?: number;
        method?: string;
        params?: unknown;
        result?: unknown;
        error?: { message: string };
      };
      if (message.id !== undefined) {
        const waiter = this.#pending.get(message.id);
        this.#pending.delete(message.id);
        if (message.error) waiter?.reject(new Error(message.error.message));
        else waiter?.resolve(message.result);
      } else if (message.method) this.#listeners.get(message.method)?.(message.params);
    });
  }

  static async connect(host: string, port: number): Promise<Inspector> {
    const targets = (await (await fetch(`http://${host}:${port}/json/list`)).json()) as {
      webSocketDebuggerUrl: string;
    }[];
    const url = targets[0]?.webSocketDebuggerUrl;
    if (!url) throw new Error(`no inspector target at ${host}:${port}`);
    // Snapshot chunks are large; no message size limit.
    const socket = new WebSocket(url, { maxPayload: 0 });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new Inspector(socket);
  }

  call<T = unknown>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = ++this.#nextId;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
      this.#socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** One listener per event name (the last one set wins). */
  on(method: string, listener: (params: unknown) => void): void {
    this.#listeners.set(method, listener);
  }

  close(): void {
    this.#socket.close();
  }
}
