/**
 * The look of the kit's HTML pages: one stylesheet, inlined in report.html and in
 * certification.html (a page read away from the kit can load nothing), so that the two read as
 * one product. A page adds only what is its own.
 * @module
 */

/**
 * The stylesheet of report.html and certification.html (no `<style>` tags).
 * @example `<style>${REPORT_CSS}</style>`
 */
export const REPORT_CSS = [
  ':root{--bad:#b42318;--bad-bg:#fef3f2;--ok:#067647;--ok-bg:#ecfdf3;--warn:#b54708;--muted:#667085;' +
    '--line:#eaecf0;--mark:#fde272}',
  'body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:1200px;' +
    'padding:1.5rem;color:#101828}',
  'h1{font-size:1.5rem;margin:.2rem 0}h2{border-bottom:1px solid var(--line);padding-bottom:.2rem;margin-top:2rem}',
  'code,pre{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}',
  'body{overflow-wrap:break-word}code,pre,td.long{overflow-wrap:anywhere}td.long{min-width:12em}' +
    'table.counts th,table.counts td{white-space:nowrap}',
  'pre{background:#f9fafb;border:1px solid var(--line);padding:.5rem;overflow:auto;white-space:pre-wrap;' +
    'word-break:break-all;margin:.2rem 0}',
  '.aborted{border:2px solid var(--bad);background:var(--bad-bg);border-radius:6px;padding:.5rem 1rem;' +
    'margin:.8rem 0}.aborted h2{color:var(--bad);border:0;margin:.2rem 0}',
  '.summary{font-weight:600;padding:.4rem .7rem;border-radius:6px;display:inline-block}',
  '.summary.ok{color:var(--ok);background:var(--ok-bg)}.summary.bad{color:var(--bad);background:var(--bad-bg)}' +
    '.summary.partial{color:var(--warn);background:#fffaeb}',
  '.notice{padding:.3rem .7rem;border-radius:6px;margin:.4rem 0}' +
    '.notice.bad{color:var(--bad);background:var(--bad-bg)}.notice.warn{color:var(--warn);background:#fffaeb}',
  'dl.meta{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.1rem 1rem;margin:.8rem 0}' +
    'dl.meta dt{color:var(--muted)}dl.meta dd{margin:0}',
  'nav{margin:1rem 0;color:var(--muted)}',
  'table{border-collapse:collapse;margin:.4rem 0;max-width:100%}.scroll{overflow-x:auto;max-width:100%}' +
    'th,td{border:1px solid var(--line);padding:.2rem .5rem;text-align:left;vertical-align:top}',
  'th{background:#f9fafb}td.num{text-align:right;font-variant-numeric:tabular-nums}td.zero{color:#d0d5dd}',
  '.verdict{font-weight:600;font-size:.8rem;padding:0 .35rem;border-radius:4px;white-space:nowrap}',
  '.v-failed,.v-error,.v-unexpected-pass{color:var(--bad);background:var(--bad-bg)}' +
    '.v-passed{color:var(--ok);background:var(--ok-bg)}',
  '.v-skipped,.v-partial,.v-expected-failure{color:var(--warn);background:#fffaeb}',
  'article.case{border:1px solid var(--line);border-left:4px solid var(--bad);border-radius:6px;' +
    'padding:.4rem 1rem;margin:1rem 0}',
  'article.case h3{margin:.3rem 0}.facts,.where{color:var(--muted);margin:.2rem 0}' +
    // a reproduce line is copied as shown: its spaces kept
    '.facts code{white-space:pre-wrap}',
  '.op{border-top:1px dashed var(--line);margin-top:.6rem;padding-top:.4rem}.op h4{margin:.2rem 0;font-weight:500}',
  '.s-fail,.s-error{color:var(--bad)}.s-pass{color:var(--ok)}.s-skip{color:var(--warn)}',
  '.sbs{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:.8rem}' +
    '.sbs h5{margin:.3rem 0 0;color:var(--muted)}',
  'table.content td.line{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;' +
    'white-space:pre-wrap;word-break:break-all}',
  'table.content td.n,table.content td.part{color:var(--muted);white-space:nowrap}',
  'table.content tr.differs td.line{background:var(--bad-bg)}' +
    'table.content tr.differs td.n{color:var(--bad);font-weight:600}',
  '.lf{color:#98a2b3}.escape{color:#6941c6;font-weight:600}.masked{color:var(--warn);font-style:italic}',
  'mark.first{background:var(--mark);outline:2px solid var(--bad);outline-offset:0}mark.end{font-size:.8em}',
  '.missing{color:var(--muted);font-style:italic}',
  '.diagnosis{background:#f5f8ff;border:1px solid #d1e0ff;border-radius:6px;padding:.3rem .8rem;margin:.6rem 0}',
  '.causes li{margin:.5rem 0}.causes summary,.diagnosis summary{cursor:pointer;color:var(--muted)}',
  '.explained{border-left:3px solid #d1e0ff;padding:0 .7rem;margin:.3rem 0}.explained p{margin:.2rem 0}',
  '.diagnosis h4{margin:.2rem 0}.ref{color:var(--muted)}.doc{text-decoration:underline dotted;cursor:help}',
  'footer{margin-top:2rem;color:var(--muted);font-size:.85rem}',
  '@media (max-width:700px){body{padding:.8rem}.sbs{grid-template-columns:minmax(0,1fr)}' +
    'article.case{padding:.3rem .6rem}dl.meta{grid-template-columns:minmax(0,1fr)}' +
    'dl.meta dd{margin-bottom:.3rem}}',
].join('\n');

/**
 * The opening of a report page up to its body: doctype, charset, viewport, title, the stylesheet.
 * @param title - the page's title, already HTML-escaped
 * @param css - the stylesheet ({@link REPORT_CSS}, and a page's own rules after it)
 * @returns the lines, ending with `</head>`
 * @example pageHead('pgv2kit report', REPORT_CSS)[0] // '<!DOCTYPE html>'
 */
export function pageHead(title: string, css: string): string[] {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8" />',
    '<meta name="viewport" content="width=device-width, initial-scale=1" />',
    `<title>${title}</title>`,
    `<style>${css}</style>`,
    '</head>',
  ];
}
