/**
 * A client that sends a large body the way a slow browser would, chunk by chunk with backpressure
 * (it writes the next chunk only once the connection took the last), and notes how much it had
 * written when the answer arrived. A server that reads the whole body before it answers lets the
 * client write all of it first; one that answers at its limit leaves most of it unsent.
 */
import { request as httpRequest } from "node:http";

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Bytes of the body the client had written when the answer's head arrived. */
  writtenAtAnswer: number;
  /** Bytes of the body in all. */
  total: number;
}

/** The pieces of a body: bytes as they are, or `size` bytes of filler (generated, never held whole). */
export type BodyPiece = Uint8Array | { filler: number };

const CHUNK = 64 * 1024;

function sizeOf(pieces: readonly BodyPiece[]): number {
  return pieces.reduce((sum, piece) => sum + (piece instanceof Uint8Array ? piece.byteLength : piece.filler), 0);
}

function* chunksOf(pieces: readonly BodyPiece[]): Generator<Uint8Array> {
  const filler = new Uint8Array(CHUNK).map((_, i) => 32 + (i % 90));
  for (const piece of pieces) {
    if (piece instanceof Uint8Array) {
      for (let at = 0; at < piece.byteLength; at += CHUNK) yield piece.subarray(at, at + CHUNK);
      continue;
    }
    for (let left = piece.filler; left > 0; left -= CHUNK) yield filler.subarray(0, Math.min(CHUNK, left));
  }
}

export function sendRaw(
  origin: string,
  path: string,
  headers: Record<string, string>,
  pieces: readonly BodyPiece[],
): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  const total = sizeOf(pieces);
  return new Promise<RawAnswer>((resolve, reject) => {
    let written = 0;
    let answered = false;
    const call = httpRequest(
      { host: hostname, port, method: "POST", path, headers: { ...headers, "content-length": String(total) } },
      (response) => {
        answered = true;
        const writtenAtAnswer = written;
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () => {
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body, writtenAtAnswer, total });
          call.destroy();
        });
        response.on("error", reject);
      },
    );
    call.on("error", (error) => {
      if (!answered) reject(error);
    });
    void (async () => {
      for (const chunk of chunksOf(pieces)) {
        if (answered || call.destroyed) return;
        written += chunk.byteLength;
        if (!call.write(chunk)) {
          await new Promise<void>((done) => {
            const go = () => {
              call.off("drain", go);
              call.off("close", go);
              done();
            };
            call.on("drain", go);
            call.on("close", go);
          });
        }
      }
      if (!answered && !call.destroyed) call.end();
    })();
  });
}

/** A multipart body by hand: text fields (as raw bytes, to send any), then a file part whose content is given as pieces. */
export function multipart(
  boundary: string,
  fields: Record<string, string | Uint8Array>,
  file: { name: string; filename: string; type: string; content: readonly BodyPiece[] } | null,
): BodyPiece[] {
  const text = (value: string) => new TextEncoder().encode(value);
  const pieces: BodyPiece[] = [];
  for (const [name, value] of Object.entries(fields)) {
    pieces.push(text(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`));
    pieces.push(typeof value === "string" ? text(value) : value);
    pieces.push(text("\r\n"));
  }
  if (file) {
    pieces.push(
      text(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
    );
    pieces.push(...file.content);
    pieces.push(text("\r\n"));
  }
  pieces.push(text(`--${boundary}--\r\n`));
  return pieces;
}
