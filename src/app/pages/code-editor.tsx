import { InputTextarea } from 'primereact/inputtextarea';
import { lazy, Suspense } from 'react';

// The props' type comes from the lazy module without loading it.
import type { CodeEditorProps } from './codemirror-editor.js';

const CodeMirrorEditor = lazy(() => import('./codemirror-editor.js'));

export type { CodeEditorProps };

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
