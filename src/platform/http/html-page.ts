import escapeHtml from "escape-html";

/**
 * A page the server renders itself (the checkout, a receipt): one document shape, with what every such
 * page's head needs (UTF-8, the viewport, no referrer sent on) and its title escaped. `head`, `body`
 * and `bodyClass` are the caller's, already escaped.
 */
export function htmlPage(page: { title: string; head: string; bodyClass?: string; body: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(page.title)}</title>
${page.head}
</head>
<body${page.bodyClass === undefined ? "" : ` class="${page.bodyClass}"`}>
${page.body}
</body>
</html>
`;
}
