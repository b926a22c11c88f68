// Reading an incremental (@defer, @stream) multipart answer as it arrives, split on the boundary
// Apollo Server writes (`---`, the last one closed by `-----`).

export type Part = Record<string, unknown> & { hasNext?: boolean };

/** The complete parts in a body read so far (a part counts once the boundary after it arrived). */
export function partsIn(text: string): Part[] {
  return text
    .split('\r\n---')
    .slice(1)
    .filter((segment) => segment.includes('\r\n\r\n'))
    .map((segment) => JSON.parse(segment.slice(segment.indexOf('\r\n\r\n') + 4)) as Part);
}

/** POSTs `query` with `accept`, and reads the answer as it arrives: `until(done)` returns the body once `done` holds. */
export async function streamedAnswer(
  url: string,
  body: { query: string; variables?: Record<string, unknown> },
  accept: string,
) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept },
    body: JSON.stringify(body),
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    async until(done: (text: string) => boolean): Promise<string> {
      while (!done(text)) {
        const { value, done: ended } = await reader.read();
        if (ended) return text;
        text += decoder.decode(value, { stream: true });
      }
      return text;
    },
    /** The whole body's parts. */
    async all(): Promise<Part[]> {
      return partsIn(await this.until(() => false));
    },
  };
}

/** Whether the body so far holds at least `count` complete parts. */
export const hasParts = (count: number) => (text: string) => text.split('\r\n---').length >= count + 2;
