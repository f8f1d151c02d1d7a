/**
 * Escaping for the status page's server-rendered documents (HTML, Atom, SVG). Everything a workspace's users
 * typed (page titles, service names, notice titles and messages) goes through one of these before it reaches
 * markup. The server's only other escaper (routes/web.ts) is private to the app shell and leaves `'` alone.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Characters XML 1.0 forbids outright (C0 controls other than tab, line feed and carriage return; lone surrogates;
 * U+FFFE and U+FFFF): a feed carrying one does not parse at all, so they are dropped.
 */
/* eslint-disable no-control-regex */
const NOT_XML =
  /[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/* eslint-enable no-control-regex */

/** Text or an attribute value (quoted with either quote) in HTML. */
export function escapeHtml(value: string): string {
  return value.replace(NOT_XML, '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Text or an attribute value in XML (Atom, SVG); the same entities, all of them defined in XML too. */
export const escapeXml = escapeHtml;

/**
 * A value for an inline script, as a JavaScript literal that cannot end the script element (`</script>`) or open
 * a comment (`<!--`) whatever it holds.
 */
export function scriptLiteral(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
