import DOMPurify from 'dompurify';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';

/**
 * Markdown to safe HTML (docs/decisions.md#pages): micromark with GFM and raw HTML allowed (the spec's pages may carry
 * tables, details, images), then DOMPurify before anything reaches the DOM. DOMPurify drops scripts, event
 * handlers and javascript: URLs; on top of its defaults, style sheets, inline styles and forms go too (a page
 * must not restyle or overlay the app around it). Browser only: DOMPurify needs a DOM.
 */
export function renderMarkdown(text: string): string {
  const html = micromark(text, {
    allowDangerousHtml: true,
    extensions: [gfm()],
    htmlExtensions: [gfmHtml()],
  });
  return sanitizeHtml(html);
}

let hooked = false;

export function sanitizeHtml(html: string): string {
  if (!hooked) {
    hooked = true;
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      // Links a page opens elsewhere cannot reach back into the app.
      if (node.tagName === 'A' && node.getAttribute('target')) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      }
      // Code blocks and tables scroll sideways on narrow screens: keyboard users reach them to scroll.
      if (node.tagName === 'PRE' || node.tagName === 'TABLE') node.setAttribute('tabindex', '0');
    });
  }
  return DOMPurify.sanitize(html, {
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'option', 'link', 'meta', 'base'],
    FORBID_ATTR: ['style', 'formaction', 'action'],
  });
}
