import type { ReactNode } from 'react';

/** The centred card of the account screens (spec: login card at most 400px wide). */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  return (
    <main className="flex justify-content-center align-items-start min-h-screen p-4 beacon-auth-page">
      <section className="surface-card border-round shadow-2 p-4 w-full" style={{ maxWidth: 400, marginTop: '8vh' }}>
        <div className="flex align-items-center gap-2 mb-3">
          <img src="/icons/icon-192.png" alt="" width={36} height={36} />
          <span className="font-bold text-xl">Beacon</span>
        </div>
        <h1 className="text-2xl font-semibold mt-0 mb-2">{title}</h1>
        {subtitle && <p className="text-700 mt-0 mb-3">{subtitle}</p>}
        {children}
      </section>
    </main>
  );
}
