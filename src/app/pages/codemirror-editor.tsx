import { closeBrackets, closeBracketsKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { markdownKeymap, markdownLanguage, pasteURLAsLink } from '@codemirror/lang-markdown';
import { yaml } from '@codemirror/lang-yaml';
import {
  bracketMatching,
  defaultHighlightStyle,
  foldGutter,
  foldKeymap,
  indentOnInput,
  LanguageSupport,
  syntaxHighlighting,
} from '@codemirror/language';
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search';
import { EditorState, Prec, type Extension } from '@codemirror/state';
import {
  crosshairCursor,
  drawSelection,
  dropCursor,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
  placeholder as placeholderText,
  rectangularSelection,
} from '@codemirror/view';
import { useEffect, useRef } from 'react';

/**
 * codemirror's basicSetup without what markdown and YAML never use here (autocompletion, the lint keymap): the
 * same gutters, history, folding, brackets, search and keys.
 */
const setup: Extension = [
  lineNumbers(),
  highlightActiveLineGutter(),
  highlightSpecialChars(),
  history(),
  foldGutter(),
  drawSelection(),
  dropCursor(),
  EditorState.allowMultipleSelections.of(true),
  indentOnInput(),
  syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
  bracketMatching(),
  closeBrackets(),
  rectangularSelection(),
  crosshairCursor(),
  highlightActiveLine(),
  highlightSelectionMatches(),
  keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap, ...foldKeymap]),
];

/**
 * GFM markdown with its keys (Enter continues a list or quote, Backspace removes markup) and pasting a URL over a
 * selection as a link. Not `markdown()`: that one always brings @codemirror/lang-html, and with it the CSS and
 * JavaScript modes, for highlighting and completing raw HTML inside markdown (about 60 KB gzip of the editor).
 */
function markdownSupport(): LanguageSupport {
  return new LanguageSupport(markdownLanguage, [Prec.high(keymap.of(markdownKeymap)), pasteURLAsLink]);
}

/** What either editor takes (the plain one of code-editor.tsx, or this one). */
export interface CodeEditorProps {
  id: string;
  label: string;
  value: string;
  language: 'markdown' | 'yaml';
  placeholder?: string;
  onChange(value: string): void;
}

/** CodeMirror 6 for markdown or YAML; the value is the editor's own until the screen hands it another one. */
export default function CodeMirrorEditor({ id, label, value, language, placeholder, onChange }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const changed = useRef(onChange);
  changed.current = onChange;

  useEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          setup,
          EditorView.lineWrapping,
          language === 'yaml' ? yaml() : markdownSupport(),
          EditorView.contentAttributes.of({ 'aria-label': label, id, 'aria-multiline': 'true' }),
          ...(placeholder ? [placeholderText(placeholder)] : []),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // Created once per language; later values arrive through the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [language]);

  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value)
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
  }, [value]);

  return <div ref={host} className="beacon-code-editor border-1 surface-border border-round overflow-hidden" />;
}
