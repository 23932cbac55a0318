/**
 * A request body the site may stop reading before its end: an application over a size limit is
 * answered as soon as the limit is passed, not after the rest arrived. The answer goes out on the
 * open connection (closing it at once would reset it, and a client still sending could lose the
 * answer); then what the client still sends is read and dropped, up to a bound, so that a client
 * that stops on the answer frees the connection, and one that goes on cannot make the site read
 * without end.
 */

/** The most the site drops of a body after answering before it. Past it, the rest is left unread. */
const DROP_AT_MOST_BYTES = 16 * 1024 * 1024;

export interface WatchedBody {
  /** The body to read. Cancelling it only stops reading (a Node request is not reset before the answer). */
  readonly stream: ReadableStream<Uint8Array>;
  /** Whether the body was read to its end (or broke off). */
  readonly ended: boolean;
  /** After the answer: reads and drops what is left of a body not read to its end, up to the bound. */
  dropRest(): void;
}

export function watchBody(source: ReadableStream<Uint8Array>): WatchedBody {
  const reader = source.getReader();
  let ended = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            ended = true;
            controller.close();
          } else controller.enqueue(value);
        } catch (error) {
          ended = true;
          controller.error(error);
        }
      },
      cancel() {},
    },
    { highWaterMark: 0 },
  );
  async function drop(): Promise<void> {
    let dropped = 0;
    while (dropped <= DROP_AT_MOST_BYTES) {
      const { done, value } = await reader.read();
      if (done) return;
      dropped += value.byteLength;
    }
    await reader.cancel();
  }
  return {
    stream,
    get ended() {
      return ended;
    },
    dropRest() {
      if (ended) return;
      ended = true;
      // On the next turn, once the adapter wrote the answer.
      setImmediate(() => {
        drop().catch(() => undefined);
      });
    },
  };
}
