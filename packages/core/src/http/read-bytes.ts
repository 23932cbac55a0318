/**
 * Reads a byte stream to its end into one array, stopping as soon as it passes `maxBytes`: then
 * the stream is cancelled (so that the connection behind it can move on) and the answer is null.
 * The one reader of whole bodies: the fetch bridge, the memory file store and the careers site's
 * JSON applications use it.
 */
export function readBytes(stream: ReadableStream<Uint8Array>): Promise<Uint8Array>;
export function readBytes(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array | null>;
export async function readBytes(
  stream: ReadableStream<Uint8Array>,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<Uint8Array | null> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
