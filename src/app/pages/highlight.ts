import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import go from 'highlight.js/lib/languages/go';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import 'highlight.js/styles/github.css';

/**
 * The highlighter, loaded only when a page has a code block (integrations.md 4: highlight.js core with a few
 * languages, 17 KB gzip). It escapes what it writes; blocks in another language stay plain.
 */
const LANGUAGES = { bash, go, javascript, json, python, sql, typescript, xml, yaml };
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);
hljs.registerAliases(['sh', 'shell'], { languageName: 'bash' });
hljs.registerAliases(['js', 'jsx'], { languageName: 'javascript' });
hljs.registerAliases(['ts', 'tsx'], { languageName: 'typescript' });
hljs.registerAliases(['yml'], { languageName: 'yaml' });
hljs.registerAliases(['html'], { languageName: 'xml' });

export function highlightBlocks(root: HTMLElement): void {
  for (const block of root.querySelectorAll<HTMLElement>('pre code[class*="language-"]')) {
    const language = /language-([\w-]+)/.exec(block.className)?.[1];
    if (!language || !hljs.getLanguage(language) || block.dataset.highlighted) continue;
    hljs.highlightElement(block);
  }
}
