/** What the feeds share: text XML 1.0 can hold, and CDATA sections that survive any text. */
import type { create } from "xmlbuilder2";

type XMLBuilder = ReturnType<typeof create>;

/** Characters XML 1.0 forbids (C0 controls but tab, newline and return; U+FFFE, U+FFFF), removed. */
export function xmlSafe(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "");
}

/**
 * `<name><![CDATA[text]]></name>`: a `]]>` in the text is split across two sections, so that no
 * text can end the section early.
 */
export function cdataElement(parent: XMLBuilder, name: string, text: string): void {
  const element = parent.ele(name);
  const parts = xmlSafe(text).split("]]>");
  parts.forEach((part, index) => {
    const head = index > 0 ? ">" : "";
    const tail = index < parts.length - 1 ? "]]" : "";
    element.dat(`${head}${part}${tail}`);
  });
}

/** `<name>text</name>` (the builder escapes it). */
export function textElement(parent: XMLBuilder, name: string, text: string): void {
  parent.ele(name).txt(xmlSafe(text));
}
