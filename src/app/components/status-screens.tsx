import { ProgressSpinner } from 'primereact/progressspinner';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

export function Spinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="flex justify-content-center align-items-center p-5" role="progressbar" aria-label={label}>
      {/* The wrapper is the labelled progressbar; the drawing inside is decoration. */}
      <ProgressSpinner style={{ width: '3rem', height: '3rem' }} strokeWidth="4" aria-hidden="true" />
    </div>
  );
}

export function FullPageSpinner() {
  return (
    <main className="flex justify-content-center align-items-center min-h-screen">
      <Spinner />
    </main>
  );
}

/** A centred card with a title and a message: the workspace states and the not-found view. */
export function MessageCard({
  title,
  children,
  icon = 'pi-info-circle',
}: {
  title: string;
  children?: ReactNode;
  icon?: string;
}) {
  return (
    <div className="flex justify-content-center p-4">
      <section className="surface-card border-round shadow-1 p-5 text-center" style={{ maxWidth: 480, width: '100%' }}>
        <i className={`pi ${icon} text-5xl text-primary mb-3`} aria-hidden="true" />
        <h1 className="text-2xl font-semibold m-0 mb-2">{title}</h1>
        {children && <p className="text-700 m-0">{children}</p>}
      </section>
    </div>
  );
}

export const CONTACT_ADMIN = 'Please contact the adminstrator to reactivate your account.';

/** The 404 card (spec: '404 Not Found' with 'No pages found', title and text optional). */
export function NotFound({ title = '404 Not Found', text = 'No pages found' }: { title?: string; text?: string }) {
  return (
    <MessageCard title={title} icon="pi-map">
      {text}
      <span className="block mt-3">
        <Link to="/">Back to Home</Link>
      </span>
    </MessageCard>
  );
}
