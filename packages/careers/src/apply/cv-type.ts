/**
 * What a CV file is, read from its bytes (never from its name or the type the browser declared):
 * PDF, DOCX, ODT and RTF as `file-type` recognises them; DOC as a compound document (`file-type`'s
 * `cfb`) that holds a `WordDocument` stream (an installer or a spreadsheet is a compound document
 * too); TXT, which has no signature, only when the bytes are valid UTF-8 text without NULs.
 * Anything else (an executable renamed `cv.pdf`, an image, an archive) is refused.
 */
import { createReadStream } from "node:fs";
import { fileTypeFromFile } from "file-type";

export interface CvType {
  contentType: string;
  extension: string;
  /** A reader's name for it. */
  label: string;
}

const KNOWN: Record<string, CvType> = {
  pdf: { contentType: "application/pdf", extension: "pdf", label: "PDF" },
  docx: {
    contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    extension: "docx",
    label: "Word (DOCX)",
  },
  odt: { contentType: "application/vnd.oasis.opendocument.text", extension: "odt", label: "OpenDocument text" },
  rtf: { contentType: "application/rtf", extension: "rtf", label: "RTF" },
};
const DOC: CvType = { contentType: "application/msword", extension: "doc", label: "Word (DOC)" };
const TXT: CvType = { contentType: "text/plain; charset=utf-8", extension: "txt", label: "plain text" };

/** `WordDocument` in UTF-16LE: the name of the main stream of a Word 97-2003 document. */
const WORD_STREAM = Buffer.from("WordDocument", "utf16le");

/** Whether the file holds `pattern`, read in chunks (with an overlap, so no match is cut in two). */
async function contains(path: string, pattern: Buffer): Promise<boolean> {
  let tail = Buffer.alloc(0);
  for await (const chunk of createReadStream(path, { highWaterMark: 64 * 1024 })) {
    const window = Buffer.concat([tail, chunk as Buffer]);
    if (window.includes(pattern)) return true;
    tail = window.subarray(Math.max(0, window.byteLength - pattern.byteLength + 1));
  }
  return false;
}

/** Whether the file is valid UTF-8 text without NUL bytes (and not empty). */
async function isUtf8Text(path: string): Promise<boolean> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let size = 0;
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 64 * 1024 })) {
      const bytes = chunk as Buffer;
      if (bytes.includes(0)) return false;
      size += bytes.byteLength;
      decoder.decode(bytes, { stream: true });
    }
    decoder.decode();
  } catch {
    return false;
  }
  return size > 0;
}

/** The CV's type, or null when it is not one the site takes. `detected` names what it was instead, when known. */
export async function cvTypeOf(path: string): Promise<{ type: CvType | null; detected: string | null }> {
  const found = await fileTypeFromFile(path);
  if (!found) return { type: (await isUtf8Text(path)) ? TXT : null, detected: null };
  const known = KNOWN[found.ext];
  if (known) return { type: known, detected: found.ext };
  if (found.ext === "cfb" && (await contains(path, WORD_STREAM))) return { type: DOC, detected: "doc" };
  return { type: null, detected: found.ext };
}

/** The uploader's file name, made safe to keep and to offer back: no folders, no control characters, the right extension. */
export function cvFilename(name: string, type: CvType): string {
  const base = (name.split(/[\\/]/).pop() ?? "")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
    .replace(/[\u0000-\u001F\u007F]/g, "")
    .trim()
    .slice(0, 200);
  const stem = base || "cv";
  const extension = stem.includes(".") ? stem.slice(stem.lastIndexOf(".") + 1).toLowerCase() : "";
  return extension === type.extension ? stem : `${stem}.${type.extension}`;
}
