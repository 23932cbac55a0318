import type { ResolvedConsoleOptions } from "../options";

/**
 * The console's styles, every rule under `.hrp` (the class of the page's root element), so that a
 * host stylesheet loaded beside them (`theme.stylesheetUrl`) and the host's own look are left alone.
 * The theme's values are checked at creation (a hex colour, a font list).
 */
export function consoleStyles(theme: ResolvedConsoleOptions["theme"]): string {
  return `
.hrp{--hrp-accent:${theme.accentColor};--hrp-border:#d0d4dc;--hrp-muted:#5a6270;--hrp-bg:#fff;--hrp-soft:#f4f6f9;
font-family:${theme.fontFamily};color:#1b1f27;background:var(--hrp-bg);margin:0;padding:0 1rem 2rem;line-height:1.45;font-size:15px}
.hrp a{color:var(--hrp-accent)}
.hrp h1{font-size:1.4rem;margin:1rem 0 .5rem}.hrp h2{font-size:1.15rem;margin:1.5rem 0 .5rem}.hrp h3{font-size:1rem;margin:1rem 0 .4rem}
.hrp nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:1rem;padding:0;margin:0 0 1rem;border-bottom:1px solid var(--hrp-border)}
.hrp nav a{display:inline-block;padding:.4rem 0;text-decoration:none}.hrp nav a[aria-current=page]{font-weight:600;border-bottom:2px solid var(--hrp-accent)}
.hrp table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem;font-size:.9rem}
.hrp th,.hrp td{border-bottom:1px solid var(--hrp-border);padding:.35rem .5rem;text-align:left;vertical-align:top}
.hrp th{background:var(--hrp-soft);font-weight:600}
.hrp code,.hrp pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.85rem}
.hrp pre{background:var(--hrp-soft);padding:.5rem;overflow:auto;max-height:16rem;white-space:pre-wrap;word-break:break-all}.hrp pre.whole{max-height:none;overflow:visible}
.hrp form.inline{display:inline}
.hrp fieldset{border:1px solid var(--hrp-border);padding:.5rem .75rem;margin:0 0 .75rem}
.hrp label{display:block;margin:.4rem 0 .15rem;font-weight:600}.hrp label.check{display:inline-flex;gap:.3rem;font-weight:400;margin-right:1rem}
.hrp input[type=text],.hrp input[type=email],.hrp input[type=url],.hrp input[type=date],.hrp input[type=datetime-local],.hrp select{padding:.3rem .4rem;border:1px solid var(--hrp-border);border-radius:4px;min-width:14rem;font:inherit}
.hrp button{font:inherit;padding:.35rem .8rem;border-radius:4px;border:1px solid var(--hrp-accent);background:var(--hrp-accent);color:#fff;cursor:pointer;margin:.25rem .25rem .25rem 0}
.hrp button.secondary{background:#fff;color:var(--hrp-accent)}.hrp button.danger{background:#b42318;border-color:#b42318}
.hrp .notice{border-left:4px solid #b54708;background:#fffaeb;padding:.5rem .75rem;margin:.5rem 0}
.hrp .done{border-left:4px solid #067647;background:#ecfdf3;padding:.5rem .75rem;margin:.5rem 0}
.hrp .error{border-left:4px solid #b42318;background:#fef3f2;padding:.5rem .75rem;margin:.5rem 0}
.hrp .secret{border:2px solid var(--hrp-accent);padding:.75rem;margin:.75rem 0;background:var(--hrp-soft)}
.hrp .secret code{font-size:1rem;word-break:break-all}
.hrp .muted{color:var(--hrp-muted)}.hrp .status-failed,.hrp .status-revoked{color:#b42318}.hrp .status-succeeded,.hrp .status-active{color:#067647}
.hrp .chart{max-width:100%;height:auto}.hrp .chart .c2{fill:var(--hrp-accent)}.hrp .chart .c3{fill:#7a5af8}.hrp .chart .c4{fill:#f79009}.hrp .chart .c5{fill:#d92d20}.hrp .chart .c1{fill:#98a2b3}
.hrp .chart text{font-size:10px;fill:var(--hrp-muted)}.hrp .chart line{stroke:var(--hrp-border)}
.hrp .legend{display:flex;gap:1rem;list-style:none;padding:0;font-size:.85rem}.hrp .legend svg{vertical-align:middle}
.hrp .visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`;
}
