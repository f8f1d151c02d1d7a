import { InputTextarea } from 'primereact/inputtextarea';
import { lazy, Suspense } from 'react';

const CodeMirrorEditor = lazy(() => import('./codemirror-editor.js'));

export interface CodeEditorProps {
  id: string;
  label: string;
  value: string;
  language: 'markdown' | 'yaml';
  placeholder?: string;
  onChange(value: string): void;
}

/** Spec 2.1: on mobile browsers the editor is a plain text area. */
export function isMobileAgent(userAgent = typeof navigator === 'undefined' ? '' : navigator.userAgent): boolean {
  return /Android|iPhone|iPad|iPod|Mobile|Opera Mini|IEMobile/i.test(userAgent);
}

function PlainEditor({ id, label, value, placeholder, onChange }: CodeEditorProps) {
  return (
    <InputTextarea
      id={id}
      aria-label={label}
      value={value}
      placeholder={placeholder}
      rows={18}
      className="w-full font-mono text-sm"
      style={{ fontFamily: 'monospace' }}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

/** The content editor: CodeMirror (its own chunk, loaded with the editor) or, on mobile, a text area. */
export function CodeEditor(props: CodeEditorProps) {
  if (isMobileAgent()) return <PlainEditor {...props} />;
  return (
    <Suspense fallback={<PlainEditor {...props} />}>
      <CodeMirrorEditor {...props} />
    </Suspense>
  );
}
