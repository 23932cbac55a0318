import type { ComponentChildren } from "preact";
import type { ResolvedTheme } from "../options";
import type { SiteContext } from "./renderers";

/** The frame of every page: `lang`, landmarks, a skip link, the company's header, the feeds in the footer. */
export function Layout(props: {
  site: SiteContext | null;
  theme: ResolvedTheme;
  styles: string;
  title: string;
  children: ComponentChildren;
  /** Extra elements of `<head>` (a canonical link, the structured data). */
  head?: ComponentChildren;
}) {
  const { site, theme } = props;
  const fullTitle = site ? `${props.title} – ${theme.name}` : props.title;
  return (
    <html lang={theme.lang}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{fullTitle}</title>
        <style dangerouslySetInnerHTML={{ __html: props.styles }} />
        {theme.stylesheetUrl ? <link rel="stylesheet" href={theme.stylesheetUrl} /> : null}
        {site ? (
          <link rel="alternate" type="application/rss+xml" title={`Jobs at ${theme.name}`} href={site.links.rss} />
        ) : null}
        {props.head}
      </head>
      <body class="hrc">
        <a class="skip" href="#main">
          Skip to the content
        </a>
        <header>
          {theme.logoUrl ? <img src={theme.logoUrl} alt="" /> : null}
          {site ? <a href={site.links.jobs}>{theme.name}</a> : <span>{theme.name}</span>}
        </header>
        <main id="main">{props.children}</main>
        {site ? (
          <footer>
            <nav aria-label="Feeds">
              <ul>
                <li>
                  <a href={site.links.jobs}>All jobs</a>
                </li>
                <li>
                  <a href={site.links.rss}>RSS feed</a>
                </li>
                <li>
                  <a href={site.links.jobsJson}>Jobs as JSON</a>
                </li>
              </ul>
            </nav>
          </footer>
        ) : null}
      </body>
    </html>
  );
}
