/**
 * The human-readable API reference, served at `GET {basePath}/reference` without a key: one HTML
 * page rendered on the server from the OpenAPI document (`buildOpenApiDocument`), so that it says
 * exactly what `openapi.json` says. Every operation with its parameters, body fields, responses and
 * errors, the returned schemas and the webhooks.
 *
 * It works with no network: no script, no external stylesheet or font, inline CSS only. The markup
 * is built as Preact elements and serialized by `preact-render-to-string`, which escapes every text
 * and attribute value: no string from the document is ever pasted into HTML.
 */
import { type ComponentChild, h } from "preact";
import { renderToString } from "preact-render-to-string";

/** A JSON Schema or OpenAPI object, as plain JSON. */
type Json = Record<string, unknown>;

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/** Inline styles: no `<`, `&` or `"` (the renderer escapes those, and CSS needs none of them). */
const CSS = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --bg: #ffffff; --soft: #f6f8fa; --accent: #0a58ca; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9da7b3; --line: #30363d; --bg: #0d1117; --soft: #161b22; --accent: #58a6ff; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.55 system-ui, -apple-system, Segoe UI, Roboto, sans-serif; color: var(--fg); background: var(--bg); }
.layout { display: grid; grid-template-columns: 17rem minmax(0, 1fr); max-width: 84rem; margin: 0 auto; }
nav { position: sticky; top: 0; align-self: start; max-height: 100vh; overflow: auto; padding: 1.5rem 1rem; border-right: 1px solid var(--line); font-size: 14px; }
nav ul { list-style: none; margin: 0 0 1rem; padding: 0; }
nav li { margin: .15rem 0; }
nav h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); margin: 1rem 0 .3rem; }
main { padding: 1.5rem 2.5rem 4rem; min-width: 0; }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
h1 { margin-top: 0; }
section.operation, section.schema, section.webhook { border-top: 1px solid var(--line); padding-top: 1rem; margin-top: 2rem; }
h3 { margin: 1.2rem 0 .4rem; font-size: 15px; }
code, .path { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; }
.method { display: inline-block; min-width: 4.2rem; text-align: center; font-weight: 700; font-size: 12px; padding: .1rem .4rem; border-radius: 4px; color: #fff; background: #57606a; margin-right: .5rem; }
.method-get { background: #1f6feb; } .method-post { background: #1a7f37; } .method-patch { background: #9a6700; } .method-put { background: #8250df; } .method-delete { background: #cf222e; }
table { border-collapse: collapse; width: 100%; margin: .3rem 0 1rem; font-size: 14px; }
td p { margin: 0 0 .3rem; }
th, td { text-align: left; vertical-align: top; border-bottom: 1px solid var(--line); padding: .35rem .5rem; }
th { background: var(--soft); font-weight: 600; }
td.name { white-space: nowrap; }
.muted { color: var(--muted); }
.badge { font-size: 11px; border: 1px solid var(--line); border-radius: 3px; padding: 0 .3rem; margin-left: .3rem; color: var(--muted); }
.required { color: #cf222e; border-color: #cf222e; }
@media (max-width: 52rem) { .layout { display: block; } nav { position: static; max-height: none; border-right: 0; border-bottom: 1px solid var(--line); } main { padding: 1rem; } }
`;

function asJson(value: unknown): Json {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** The document node a local `$ref` points at (`#/components/...`); the node itself otherwise. */
function deref(document: Json, node: unknown): Json {
  let current = asJson(node);
  for (let depth = 0; depth < 10 && typeof current.$ref === "string"; depth++) {
    let target: unknown = document;
    for (const part of current.$ref.replace(/^#\//, "").split("/")) {
      target = asJson(target)[part.replaceAll("~1", "/").replaceAll("~0", "~")];
    }
    current = asJson(target);
  }
  return current;
}

/** The last segment of a `$ref`: `#/components/schemas/Job` is `Job`. */
function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf("/") + 1);
}

/** An anchor id from any text: letters, digits and dashes only. */
function anchor(prefix: string, name: string): string {
  return `${prefix}-${name.replace(/[^A-Za-z0-9]+/g, "-")}`;
}

/** Markdown-light text of the document: paragraphs, `code` and **bold**; everything stays text. */
function prose(value: unknown): ComponentChild[] {
  return text(value)
    .split(/\n{2,}/)
    .filter((paragraph) => paragraph.trim().length > 0)
    .map((paragraph) => h("p", null, ...inline(paragraph)));
}

function inline(paragraph: string): ComponentChild[] {
  const parts: ComponentChild[] = [];
  for (const piece of paragraph.split(/(`[^`]+`|\*\*[^*]+\*\*)/)) {
    if (piece.startsWith("`") && piece.endsWith("`") && piece.length > 1)
      parts.push(h("code", null, piece.slice(1, -1)));
    else if (piece.startsWith("**") && piece.endsWith("**") && piece.length > 3) {
      parts.push(h("strong", null, piece.slice(2, -2)));
    } else if (piece) parts.push(piece);
  }
  return parts;
}

/** A short type of a schema: `string (date-time)`, `integer`, `string[]`, a link to a named schema, `… or null`. */
function typeOf(schema: Json): ComponentChild {
  if (typeof schema.$ref === "string") {
    const name = refName(schema.$ref);
    return h("a", { href: `#${anchor("schema", name)}` }, name);
  }
  const options = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (Array.isArray(options)) {
    const parts: ComponentChild[] = [];
    options.forEach((option, index) => {
      if (index > 0) parts.push(" or ");
      parts.push(option.type === "null" ? "null" : option.const === "" ? '""' : typeOf(option));
    });
    return h("span", null, ...parts);
  }
  if (schema.const !== undefined) return h("code", null, JSON.stringify(schema.const));
  if (schema.type === "array") return h("span", null, typeOf(asJson(schema.items)), "[]");
  const type = Array.isArray(schema.type) ? schema.type.join(" or ") : text(schema.type) || "any";
  return typeof schema.format === "string" ? `${type} (${schema.format})` : type;
}

/** The checks of a schema as short phrases: lengths, ranges, enums, patterns, the default, an example. */
function constraints(schema: Json): ComponentChild[] {
  const out: ComponentChild[] = [];
  const add = (...parts: ComponentChild[]) => out.push(h("div", { class: "muted" }, ...parts));
  const options = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  const main = Array.isArray(options) ? (options.filter((o) => o.type !== "null" && o.const !== "")[0] ?? {}) : schema;
  const items = main.type === "array" ? asJson(main.items) : {};
  const range = (min: unknown, max: unknown, unit: string) => {
    if (typeof min === "number" && typeof max === "number") add(`${min} to ${max} ${unit}`.trim());
    else if (typeof max === "number") add(`at most ${max} ${unit}`.trim());
    else if (typeof min === "number") add(`at least ${min} ${unit}`.trim());
  };
  range(main.minLength, main.maxLength, "characters");
  range(main.minimum, main.maximum, "");
  range(main.minItems, main.maxItems, "items");
  if (typeof items.maxLength === "number") add(`each item at most ${items.maxLength} characters`);
  const values = (Array.isArray(main.enum) ? main.enum : Array.isArray(items.enum) ? items.enum : null) as
    | unknown[]
    | null;
  if (values) {
    const list: ComponentChild[] = ["one of: "];
    values.forEach((value, index) => {
      if (index > 0) list.push(", ");
      list.push(h("code", null, String(value)));
    });
    add(...list);
  }
  if (typeof main.pattern === "string") add("pattern ", h("code", null, main.pattern));
  if (schema.default !== undefined) add("default ", h("code", null, JSON.stringify(schema.default)));
  const examples = (schema.examples ?? main.examples) as unknown[] | undefined;
  if (Array.isArray(examples) && examples.length > 0) add("example ", h("code", null, JSON.stringify(examples[0])));
  return out;
}

interface FieldRow {
  name: string;
  schema: Json;
  required: boolean;
}

/** The fields of an object schema, nested inline objects flattened with dotted names (`candidate.email`, `fields[].field`). */
function fieldRows(document: Json, schema: Json, prefix = ""): FieldRow[] {
  const rows: FieldRow[] = [];
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  for (const [name, raw] of Object.entries(asJson(schema.properties))) {
    const property = asJson(raw);
    const path = `${prefix}${name}`;
    rows.push({ name: path, schema: property, required: required.has(name) });
    if (typeof property.$ref === "string") continue;
    if (property.type === "object" && property.properties) rows.push(...fieldRows(document, property, `${path}.`));
    const items = asJson(property.items);
    if (property.type === "array" && items.type === "object" && items.properties) {
      rows.push(...fieldRows(document, items, `${path}[].`));
    }
  }
  return rows;
}

function fieldTable(document: Json, schema: Json): ComponentChild {
  const rows = fieldRows(document, schema);
  if (rows.length === 0) return h("p", { class: "muted" }, "No fields.");
  return h(
    "table",
    null,
    h("thead", null, h("tr", null, h("th", null, "Field"), h("th", null, "Type"), h("th", null, "Description"))),
    h(
      "tbody",
      null,
      ...rows.map((row) =>
        h(
          "tr",
          null,
          h(
            "td",
            { class: "name" },
            h("code", null, row.name),
            row.required ? h("span", { class: "badge required" }, "required") : null,
          ),
          h("td", null, typeOf(row.schema)),
          h("td", null, ...prose(row.schema.description), ...constraints(row.schema)),
        ),
      ),
    ),
  );
}

function parameterTable(document: Json, parameters: unknown[]): ComponentChild {
  if (parameters.length === 0) return null;
  return h(
    "table",
    null,
    h(
      "thead",
      null,
      h(
        "tr",
        null,
        h("th", null, "Parameter"),
        h("th", null, "In"),
        h("th", null, "Type"),
        h("th", null, "Description"),
      ),
    ),
    h(
      "tbody",
      null,
      ...parameters.map((raw) => {
        const parameter = deref(document, raw);
        const schema = asJson(parameter.schema);
        return h(
          "tr",
          null,
          h(
            "td",
            { class: "name" },
            h("code", null, text(parameter.name)),
            parameter.required ? h("span", { class: "badge required" }, "required") : null,
          ),
          h("td", null, text(parameter.in)),
          h("td", null, typeOf(schema)),
          h("td", null, ...prose(parameter.description ?? schema.description), ...constraints(schema)),
        );
      }),
    ),
  );
}

/** The schema of a response or body's first media type, and that media type. */
function mediaSchema(node: Json): { type: string; schema: Json } | null {
  const [type, media] = Object.entries(asJson(node.content))[0] ?? [];
  return type ? { type, schema: asJson(asJson(media).schema) } : null;
}

function headerList(document: Json, headers: unknown): ComponentChild {
  const names = Object.keys(asJson(headers));
  if (names.length === 0) return null;
  return h(
    "div",
    { class: "muted" },
    "Headers: ",
    ...names.flatMap((name, index) => {
      const header = deref(document, asJson(headers)[name]);
      return [index > 0 ? ", " : "", h("code", { title: text(header.description) }, name)];
    }),
  );
}

function responseTable(document: Json, responses: Json): ComponentChild {
  return h(
    "table",
    null,
    h("thead", null, h("tr", null, h("th", null, "Status"), h("th", null, "Meaning"), h("th", null, "Body"))),
    h(
      "tbody",
      null,
      ...Object.entries(responses).map(([status, raw]) => {
        const response = deref(document, raw);
        const name = typeof asJson(raw).$ref === "string" ? refName(asJson(raw).$ref as string) : null;
        const media = mediaSchema(response);
        return h(
          "tr",
          null,
          h("td", { class: "name" }, h("code", null, status), name ? h("div", { class: "muted" }, name) : null),
          h("td", null, ...prose(response.description), headerList(document, response.headers)),
          h("td", null, media ? [h("code", null, media.type), " ", typeOf(media.schema)] : "none"),
        );
      }),
    ),
  );
}

interface Operation {
  method: string;
  path: string;
  operation: Json;
}

function operations(document: Json): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(asJson(document.paths))) {
    for (const method of METHODS) {
      const operation = asJson(asJson(item)[method]);
      if (typeof operation.operationId === "string") out.push({ method, path, operation });
    }
  }
  return out;
}

function operationSection(document: Json, { method, path, operation }: Operation): ComponentChild {
  const id = text(operation.operationId);
  const body = operation.requestBody ? deref(document, operation.requestBody) : null;
  const bodyMedia = body ? mediaSchema(body) : null;
  const bodySchema = bodyMedia ? deref(document, bodyMedia.schema) : null;
  return h(
    "section",
    { class: "operation", id },
    h(
      "h2",
      null,
      h("span", { class: `method method-${method}` }, method.toUpperCase()),
      h("span", { class: "path" }, path),
    ),
    h("p", null, h("strong", null, text(operation.summary)), " ", h("code", { class: "muted" }, id)),
    ...prose(operation.description),
    operation.parameters ? h("h3", null, "Parameters") : null,
    parameterTable(document, (operation.parameters as unknown[] | undefined) ?? []),
    bodySchema && bodyMedia
      ? [
          h("h3", null, "Request body ", h("code", { class: "muted" }, bodyMedia.type)),
          ...prose(bodySchema.description),
          fieldTable(document, bodySchema),
        ]
      : null,
    h("h3", null, "Responses"),
    responseTable(document, asJson(operation.responses)),
  );
}

function schemaSection(document: Json, name: string, schema: Json): ComponentChild {
  const options = (schema.oneOf ?? schema.anyOf) as Json[] | undefined;
  return h(
    "section",
    { class: "schema", id: anchor("schema", name) },
    h("h2", null, name),
    ...prose(schema.description),
    Array.isArray(options)
      ? options.map((option, index) => [h("h3", null, `Variant ${index + 1}`), fieldTable(document, option)])
      : schema.properties
        ? fieldTable(document, schema)
        : h("p", null, typeOf(schema)),
  );
}

function errorCodes(document: Json): ComponentChild {
  const responses = asJson(asJson(document.components).responses);
  return h(
    "table",
    null,
    h("thead", null, h("tr", null, h("th", null, "Response"), h("th", null, "Meaning"), h("th", null, "Body"))),
    h(
      "tbody",
      null,
      ...Object.entries(responses).map(([name, raw]) => {
        const response = asJson(raw);
        const media = mediaSchema(response);
        return h(
          "tr",
          { id: anchor("response", name) },
          h("td", { class: "name" }, name),
          h("td", null, ...prose(response.description), headerList(document, response.headers)),
          h("td", null, media ? typeOf(media.schema) : "none"),
        );
      }),
    ),
  );
}

function webhookSections(document: Json): ComponentChild[] {
  return Object.entries(asJson(document.webhooks)).map(([event, item]) => {
    const post = asJson(asJson(item).post);
    const media = post.requestBody ? mediaSchema(deref(document, post.requestBody)) : null;
    return h(
      "section",
      { class: "webhook", id: anchor("webhook", event) },
      h("h2", null, h("span", { class: "method method-post" }, "POST"), h("span", { class: "path" }, event)),
      ...prose(post.description),
      parameterTable(document, (post.parameters as unknown[] | undefined) ?? []),
      media ? h("p", null, "Body: ", typeOf(media.schema)) : null,
      h("h3", null, "Answers"),
      responseTable(document, asJson(post.responses)),
    );
  });
}

function securitySection(document: Json): ComponentChild {
  const schemes = asJson(asJson(document.components).securitySchemes);
  return h(
    "ul",
    null,
    ...Object.entries(schemes).map(([name, raw]) =>
      h("li", null, h("code", null, name), ": ", text(asJson(raw).description)),
    ),
  );
}

function navigation(document: Json, all: Operation[], schemaNames: string[]): ComponentChild {
  const tags = (Array.isArray(document.tags) ? document.tags : []) as Json[];
  const groups = tags.map((tag) => ({
    name: text(tag.name),
    items: all.filter(({ operation }) => Array.isArray(operation.tags) && operation.tags.includes(tag.name)),
  }));
  return h(
    "nav",
    { "aria-label": "Contents" },
    h("p", null, h("a", { href: "#top" }, text(asJson(document.info).title))),
    ...groups
      .filter((group) => group.items.length > 0)
      .map((group) => [
        h("h2", null, group.name),
        h(
          "ul",
          null,
          ...group.items.map(({ method, path, operation }) =>
            h(
              "li",
              null,
              h("a", { href: `#${text(operation.operationId)}` }, h("code", null, method.toUpperCase()), " ", path),
            ),
          ),
        ),
      ]),
    h("h2", null, "Schemas"),
    h("ul", null, ...schemaNames.map((name) => h("li", null, h("a", { href: `#${anchor("schema", name)}` }, name)))),
    h("h2", null, "More"),
    h(
      "ul",
      null,
      h("li", null, h("a", { href: "#errors" }, "Errors")),
      h("li", null, h("a", { href: "#webhooks" }, "Webhooks")),
      h("li", null, h("a", { href: "openapi.json" }, "openapi.json")),
    ),
  );
}

/**
 * Renders the reference page of an OpenAPI 3.1 document as a complete HTML document (a string).
 * Pure: the same document gives the same page.
 */
export function renderApiReference(document: Record<string, unknown>): string {
  const info = asJson(document.info);
  const components = asJson(document.components);
  const all = operations(document);
  const schemas = asJson(components.schemas);
  const servers = (Array.isArray(document.servers) ? document.servers : []) as Json[];
  const title = `${text(info.title)} ${text(info.version)}`.trim();

  const page = h(
    "html",
    { lang: "en" },
    h(
      "head",
      null,
      h("meta", { charset: "utf-8" }),
      h("meta", { name: "viewport", content: "width=device-width, initial-scale=1" }),
      h("title", null, `${title}: reference`),
      h("style", null, CSS),
    ),
    h(
      "body",
      null,
      h(
        "div",
        { class: "layout" },
        navigation(document, all, Object.keys(schemas)),
        h(
          "main",
          { id: "top" },
          h("h1", null, title),
          servers.length > 0
            ? h("p", { class: "muted" }, "Base address: ", h("code", null, text(servers[0]?.url)))
            : null,
          ...prose(info.description),
          h("h2", null, "Keys"),
          securitySection(document),
          ...all.map((operation) => operationSection(document, operation)),
          h("h2", { id: "errors" }, "Errors"),
          errorCodes(document),
          ...Object.entries(schemas).map(([name, schema]) => schemaSection(document, name, asJson(schema))),
          h("h2", { id: "webhooks" }, "Webhooks"),
          ...webhookSections(document),
        ),
      ),
    ),
  );
  return `<!doctype html>${renderToString(page)}`;
}
