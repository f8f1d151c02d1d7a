import { useQuery } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { InputSwitch } from 'primereact/inputswitch';
import { SelectButton } from 'primereact/selectbutton';
import { useState } from 'react';
import type { Service } from '../../contract/catalogue.js';
import type { Notice } from '../../contract/notices.js';
import { DEFAULT_NOTICE_FILTER, NOTICE_TYPES, type NoticeFilter, type NoticeType } from '../../domain/notices.js';
import { useAuth } from '../session/auth-context.js';
import { Spinner } from '../components/status-screens.js';
import { NoticeCard } from './notice-card.js';
import { NoticeDialog } from './notice-dialog.js';
import { NoticeViewDialog } from './notice-view-dialog.js';
import { getNoticesQueryOptions } from './notices-api.js';

/** Spec 2.1: the filter tabs and the types each shows. */
export const NOTICE_TABS: ReadonlyArray<{ label: string; types: readonly NoticeType[] }> = [
  { label: 'All', types: NOTICE_TYPES },
  { label: 'Maintenance', types: ['maintenance'] },
  { label: 'Incidents', types: ['incident'] },
];

const sameTypes = (a: readonly NoticeType[], b: readonly NoticeType[]) =>
  a.length === b.length && a.every((type) => b.includes(type));

type Modal = { kind: 'add' } | { kind: 'update'; notice: Notice } | { kind: 'view'; notice: Notice };

/**
 * /services/:id/notices (spec/catalogue.md 2.1): the filter tabs and the Open switch, a grid of notice cards
 * (3 per row at medium width), and for editors Add Notice and Update.
 */
export function NoticesScreen({ service }: { service: Service }) {
  const { api } = useAuth();
  const [filter, setFilter] = useState<NoticeFilter>(DEFAULT_NOTICE_FILTER);
  const [modal, setModal] = useState<Modal | null>(null);
  const { data, isPending } = useQuery(getNoticesQueryOptions(api, service.handle, filter));
  const canEdit = service.permissions.edit;
  // Spec section 4: a failed load sets the error flag and empties the list.
  const notices = data ?? [];
  const activeTab = Math.max(
    0,
    NOTICE_TABS.findIndex((tab) => sameTypes(tab.types, filter.types)),
  );

  return (
    <section className="flex flex-column gap-3">
      <div className="flex flex-wrap align-items-center justify-content-between gap-2">
        <h1 className="text-2xl font-semibold m-0">Notices</h1>
        {canEdit && (
          <Button type="button" label="Add Notice" icon="pi pi-plus" onClick={() => setModal({ kind: 'add' })} />
        )}
      </div>
      <div className="flex flex-wrap align-items-center justify-content-between gap-3">
        <SelectButton
          aria-label="Notice types"
          value={NOTICE_TABS[activeTab]!.label}
          options={NOTICE_TABS.map((tab) => tab.label)}
          allowEmpty={false}
          onChange={(event) => {
            const tab = NOTICE_TABS.find((candidate) => candidate.label === event.value);
            if (tab) setFilter((current) => ({ ...current, types: tab.types }));
          }}
        />
        <div className="flex align-items-center gap-2">
          <InputSwitch
            inputId="notices-open"
            checked={filter.open !== false}
            onChange={(event) => setFilter((current) => ({ ...current, open: Boolean(event.value) }))}
            pt={{ root: { role: 'none', 'aria-checked': undefined } }}
          />
          <label htmlFor="notices-open">Open</label>
        </div>
      </div>
      {isPending ? (
        <Spinner label="Loading notices" />
      ) : notices.length === 0 ? (
        <p className="m-0 text-600">No notices</p>
      ) : (
        <div className="grid">
          {notices.map((notice) => (
            <div key={notice.id} className="col-12 md:col-4">
              <NoticeCard
                notice={notice}
                canEdit={canEdit}
                onView={() => setModal({ kind: 'view', notice })}
                onUpdate={() => setModal({ kind: 'update', notice })}
              />
            </div>
          ))}
        </div>
      )}
      {modal?.kind === 'view' && <NoticeViewDialog notice={modal.notice} onClose={() => setModal(null)} />}
      {canEdit && modal && modal.kind !== 'view' && (
        <NoticeDialog
          // A fresh form per notice.
          key={modal.kind === 'update' ? modal.notice.id : 'add'}
          service={service}
          notice={modal.kind === 'update' ? modal.notice : undefined}
          onClose={() => setModal(null)}
        />
      )}
    </section>
  );
}
