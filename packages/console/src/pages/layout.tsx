import type { WebhookEndpoint } from "@hireport/webhooks";
import type { ComponentChildren } from "preact";
import { type ConsolePrincipal, canChange, type ResolvedConsoleOptions } from "../options";
import { consoleStyles } from "./styles";

/** Everything a page needs besides its own data. */
export interface PageContext {
  options: ResolvedConsoleOptions;
  principal: ConsolePrincipal;
  /** The CSP nonce of this answer: the one inline `<style>` and `<script>` carry it. */
  nonce: string;
  /** The CSRF token of this page's forms. */
  csrf: string;
  /** Endpoints that are not active (paused, disabled): a notice on every page. */
  stopped: readonly WebhookEndpoint[];
  /** A confirmation after a change (from the redirect's `done` parameter). */
  done?: string | null;
}

/** A link inside the console. */
export function href(ctx: Pick<PageContext, "options">, path: string, query?: URLSearchParams): string {
  const search = query?.toString();
  return `${ctx.options.basePath}${path}${search ? `?${search}` : ""}`;
}

/** The hidden CSRF field of every form. */
export function Csrf({ ctx }: { ctx: PageContext }) {
  return <input type="hidden" name="_csrf" value={ctx.csrf} />;
}

/** A form of one button that POSTs a change (shown to owners and admins only). */
export function ActionButton(props: {
  ctx: PageContext;
  action: string;
  label: string;
  kind?: "secondary" | "danger";
  fields?: Record<string, string>;
}) {
  if (!canChange(props.ctx.principal)) return null;
  return (
    <form method="post" action={href(props.ctx, props.action)} class="inline">
      <Csrf ctx={props.ctx} />
      {Object.entries(props.fields ?? {}).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <button type="submit" class={props.kind}>
        {props.label}
      </button>
    </form>
  );
}

/**
 * A secret shown once, with a Copy button: {@link COPY_SCRIPT} shows the button and wires it; without
 * JavaScript it stays hidden and the text is selectable.
 */
export function CopyableText(props: { id: string; text: string }) {
  return (
    <p>
      <code id={props.id}>{props.text}</code>{" "}
      <button type="button" class="secondary" data-copy={props.id} hidden>
        Copy
      </button>
    </p>
  );
}

/** The copy button's enhancement: the button stays hidden without JavaScript (the text is selectable). */
const COPY_SCRIPT = `document.querySelectorAll("button[data-copy]").forEach(function (b) {
  b.hidden = false;
  b.addEventListener("click", function () {
    var text = document.getElementById(b.getAttribute("data-copy")).textContent;
    navigator.clipboard.writeText(text).then(function () { b.textContent = "Copied"; }, function () { b.textContent = "Select and copy the text"; });
  });
});`;

const NAV = [
  ["keys", "/keys", "API keys"],
  ["usage", "/usage", "Usage"],
  ["webhooks", "/webhooks", "Webhooks"],
  ["audit", "/audit", "Audit log"],
  ["candidates", "/candidates", "Candidates"],
  ["indexing", "/indexing", "Search engines"],
] as const;

/** Sections shown in the navigation to owners and admins only. */
const CHANGERS_ONLY: ReadonlySet<string> = new Set(["candidates", "indexing"]);

/** Whether a section is shown to this page's principal (the indexing page needs the `indexing` option too). */
function shown(ctx: PageContext, section: string): boolean {
  if (section === "indexing" && ctx.options.indexing === null) return false;
  return canChange(ctx.principal) || !CHANGERS_ONLY.has(section);
}

export type Section = (typeof NAV)[number][0];

function Notices({ ctx }: { ctx: PageContext }) {
  if (ctx.stopped.length === 0) return null;
  return (
    <div role="alert">
      {ctx.stopped.map((endpoint) => (
        <p class="notice">
          The webhook endpoint <a href={href(ctx, `/webhooks/${endpoint.id}`)}>{endpoint.url}</a> is{" "}
          <strong>{endpoint.status}</strong>
          {endpoint.pausedReason === "failures"
            ? ` after ${endpoint.consecutiveFailures} failed deliveries in a row`
            : endpoint.status === "paused"
              ? " by a person"
              : ""}
          : its events wait{endpoint.status === "paused" ? " until it is resumed" : ""}.
        </p>
      ))}
    </div>
  );
}

/** The `<head>` of every page: the title, the console's styles (with the nonce), the host's stylesheet. */
function Head(props: { options: ResolvedConsoleOptions; nonce: string; title: string }) {
  const { theme } = props.options;
  return (
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{`${props.title} · ${theme.title}`}</title>
      <style nonce={props.nonce} dangerouslySetInnerHTML={{ __html: consoleStyles(theme) }} />
      {theme.stylesheetUrl ? <link rel="stylesheet" href={theme.stylesheetUrl} /> : null}
    </head>
  );
}

/** The page around every section: landmarks, navigation, notices, the theme. */
export function Layout(props: { ctx: PageContext; section: Section; title: string; children: ComponentChildren }) {
  const { ctx } = props;
  const { theme } = ctx.options;
  return (
    <html lang="en">
      <Head options={ctx.options} nonce={ctx.nonce} title={props.title} />
      <body class="hrp">
        <header>
          <p class="muted">
            {theme.title} · signed in as{" "}
            {typeof ctx.principal.actor === "string" ? ctx.principal.actor : ctx.principal.actor.name} (
            {ctx.principal.role})
          </p>
          <nav aria-label="API and webhooks">
            <ul>
              {NAV.filter(([section]) => shown(ctx, section)).map(([section, path, label]) => (
                <li>
                  <a href={href(ctx, path)} aria-current={section === props.section ? "page" : undefined}>
                    {label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        </header>
        <main>
          <Notices ctx={ctx} />
          {ctx.done ? (
            <p class="done" role="status">
              {ctx.done}
            </p>
          ) : null}
          <h1>{props.title}</h1>
          {props.children}
        </main>
        <script nonce={ctx.nonce} dangerouslySetInnerHTML={{ __html: COPY_SCRIPT }} />
      </body>
    </html>
  );
}

/** A page for a refusal or a failure, with or without a principal (401 has none). */
export function MessagePage(props: {
  options: ResolvedConsoleOptions;
  nonce: string;
  title: string;
  message: string;
  back?: boolean;
}) {
  return (
    <html lang="en">
      <Head options={props.options} nonce={props.nonce} title={props.title} />
      <body class="hrp">
        <main>
          <h1>{props.title}</h1>
          <p>{props.message}</p>
          {props.back ? (
            <p>
              <a href={`${props.options.basePath}/keys`}>Back to the API settings</a>
            </p>
          ) : null}
        </main>
      </body>
    </html>
  );
}
