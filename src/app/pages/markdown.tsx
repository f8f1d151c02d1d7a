import { useEffect, useMemo, useRef } from 'react';
import { renderMarkdown } from './sanitize.js';

/**
 * A page's markdown, rendered and sanitised (the one place page text becomes HTML); code blocks are highlighted
 * once the lazily loaded highlighter arrives.
 */
export function Markdown({ text, className = '' }: { text: string; className?: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const root = ref.current;
    if (!root || !root.querySelector('pre code[class*="language-"]')) return;
    let live = true;
    void import('./highlight.js').then(({ highlightBlocks }) => {
      if (live && ref.current) highlightBlocks(ref.current);
    });
    return () => {
      live = false;
    };
  }, [html]);
  // Sanitised by DOMPurify in renderMarkdown.
  return <div ref={ref} className={`beacon-markdown ${className}`} dangerouslySetInnerHTML={{ __html: html }} />;
}
