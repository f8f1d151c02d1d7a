import { markdown } from '@codemirror/lang-markdown';
import { yaml } from '@codemirror/lang-yaml';
import { EditorState } from '@codemirror/state';
import { EditorView, placeholder as placeholderText } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';

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
          basicSetup,
          EditorView.lineWrapping,
          language === 'yaml' ? yaml() : markdown(),
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
