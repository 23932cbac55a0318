import type { ResolvedTheme } from "../options";

/**
 * The site's own styles, every rule under `.hrc` (the class of the page's body), so that a host
 * stylesheet loaded after them (`theme.stylesheetUrl`) can change anything. The theme's values are
 * checked before they get here (a hex colour, a font list). The CSP allows this exact text by its hash.
 */
export function careersStyles(theme: ResolvedTheme): string {
  return `
.hrc{--hrc-accent:${theme.accentColor};--hrc-border:#d0d4dc;--hrc-muted:#525a66;--hrc-soft:#f4f6f9;
font-family:${theme.fontFamily};color:#1b1f27;background:#fff;margin:0;line-height:1.5;font-size:16px}
.hrc a{color:var(--hrc-accent)}
.hrc .skip{position:absolute;left:-10000px}.hrc .skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem}
.hrc header,.hrc main,.hrc footer{max-width:52rem;margin:0 auto;padding:0 1rem}
.hrc header{display:flex;align-items:center;gap:.75rem;padding-top:1rem;padding-bottom:.5rem;border-bottom:1px solid var(--hrc-border)}
.hrc header img{max-height:2.5rem;width:auto}.hrc header a{color:inherit;text-decoration:none;font-weight:600;font-size:1.1rem}
.hrc h1{font-size:1.6rem;margin:1.25rem 0 .5rem}.hrc h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
.hrc .meta{color:var(--hrc-muted);margin:.25rem 0 1rem;padding:0;list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1.25rem}
.hrc ol.jobs{list-style:none;padding:0;margin:0}.hrc ol.jobs li{border-bottom:1px solid var(--hrc-border);padding:.75rem 0}
.hrc ol.jobs h2{margin:0;font-size:1.1rem}
.hrc form{margin:1rem 0 2rem}.hrc fieldset{border:1px solid var(--hrc-border);padding:.75rem 1rem;margin:0 0 1rem}
.hrc fieldset.question{border:0;padding:0;margin:.75rem 0 0}.hrc fieldset.question legend{font-weight:600;padding:0}
.hrc label{display:block;margin:.75rem 0 .2rem;font-weight:600}.hrc .hint{color:var(--hrc-muted);font-size:.9rem;margin:.1rem 0}
.hrc input[type=text],.hrc input[type=email],.hrc input[type=tel],.hrc input[type=url],.hrc input[type=date],.hrc textarea{box-sizing:border-box;width:100%;max-width:36rem;padding:.45rem .5rem;border:1px solid #8a919c;border-radius:4px;font:inherit}
.hrc textarea{min-height:8rem}
.hrc [aria-invalid=true]{border-color:#b42318;outline:1px solid #b42318}
.hrc .field-error{color:#b42318;font-weight:600;margin:.2rem 0}
.hrc .check{display:flex;gap:.5rem;align-items:flex-start;font-weight:400}
.hrc button{font:inherit;padding:.55rem 1.2rem;border-radius:4px;border:1px solid var(--hrc-accent);background:var(--hrc-accent);color:#fff;cursor:pointer}
.hrc .errors{border-left:4px solid #b42318;background:#fef3f2;padding:.5rem 1rem;margin:1rem 0}
.hrc .done{border-left:4px solid #067647;background:#ecfdf3;padding:.5rem 1rem;margin:1rem 0}
.hrc .hp{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
.hrc footer{margin-top:2rem;padding-top:1rem;padding-bottom:2rem;border-top:1px solid var(--hrc-border);color:var(--hrc-muted);font-size:.9rem}
.hrc footer ul{list-style:none;padding:0;display:flex;gap:1rem;flex-wrap:wrap}
`;
}
