/**
 * One request's view of a company's careers site: the company, its theme and styles, where its pages
 * live (the mount, the company's path segment, the absolute root), and how its pages are answered.
 */
import type { ApiResponse, CompanyRecord } from "@hireport/core";
import type { ResolvedCareersOptions, ResolvedTheme } from "./options";
import { DEFAULT_RENDERERS } from "./pages/defaults";
import type { CareersRenderers, SiteContext } from "./pages/renderers";
import { careersStyles } from "./pages/styles";
import { cspHash, pageHeaders, pageText, type Rendered } from "./responses";

/** The styles of a theme and their CSP hash, kept per careers instance (a theme rarely changes). */
export class StyleCache {
  readonly #entries = new Map<string, { styles: string; hash: string }>();

  get(theme: ResolvedTheme): { styles: string; hash: string } {
    const key = `${theme.accentColor}|${theme.fontFamily}`;
    let entry = this.#entries.get(key);
    if (!entry) {
      const styles = careersStyles(theme);
      entry = { styles, hash: cspHash(styles) };
      if (this.#entries.size < 256) this.#entries.set(key, entry);
    }
    return entry;
  }
}

export interface Site extends SiteContext {
  /** Links of the company's pages start with it: the mount and the company's path segment. */
  base: string;
  /** The CSP hash of `styles`. */
  styleHash: string;
  /** The company's default country (the `defaultCountry` option), or null. */
  defaultCountry: string | null;
}

export function siteFor(
  options: ResolvedCareersOptions,
  styles: StyleCache,
  company: CompanyRecord,
  base: string,
): Site {
  const theme = options.theme(company);
  const style = styles.get(theme);
  return {
    company,
    theme,
    styles: style.styles,
    styleHash: style.hash,
    defaultCountry: options.defaultCountry(company),
    base,
    siteUrl: options.api.publicJobs.siteUrl(company.id),
    links: {
      jobs: `${base}/jobs`,
      jobsJson: `${base}/jobs.json`,
      rss: `${base}/feeds/jobs.rss`,
      indeed: `${base}/feeds/jobs.xml`,
      sitemap: `${base}/sitemap.xml`,
    },
  };
}

/** The public fields of a site (what render functions get), without the internal ones. */
export function contextOf(site: Site): SiteContext {
  const { company, theme, styles, siteUrl, links } = site;
  return { company, theme, styles, siteUrl, links };
}

/** Renders one page with the host's renderer or the site's own. */
export function render<K extends keyof CareersRenderers>(
  options: ResolvedCareersOptions,
  name: K,
  props: Parameters<CareersRenderers[K]>[0],
): Rendered {
  const renderer = (options.render[name] ?? DEFAULT_RENDERERS[name]) as (p: typeof props) => Rendered;
  return renderer(props);
}

/** An HTML answer with the page headers of its theme. */
export function htmlAnswer(
  options: ResolvedCareersOptions,
  theme: ResolvedTheme,
  styleHash: string,
  status: number,
  page: Rendered,
  extra: Record<string, string> = {},
): { status: number; headers: Record<string, string>; body: string } & ApiResponse {
  return { status, headers: { ...pageHeaders(options, theme, styleHash), ...extra }, body: pageText(page) };
}
