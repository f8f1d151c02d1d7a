import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { Tag } from 'primereact/tag';
import { useState } from 'react';
import type { StatusPage } from '../../contract/status-pages.js';
import { ApiError } from '../api/client.js';
import { useApi } from '../session/use-api.js';
import { fromNow } from '../components/from-now.js';
import { useSnackbar } from '../components/snackbars.js';
import { storeStatusPage, verifyStatusPageDomain } from './status-pages-api.js';

export const DOMAIN_VERIFIED = 'The domain is verified: it serves the page';
export const DOMAIN_STILL_PENDING = 'The record was not found yet: the domain stays pending';
export const DOMAIN_CHECK_FAILED = 'The domain could not be checked';

/** Pending or Verified, as the page's settings and the list show it. */
export function DomainStatusTag({ status }: { status: NonNullable<StatusPage['custom_domain_status']> }) {
  return status === 'verified' ? (
    <Tag value="Verified" severity="success" icon="pi pi-check" />
  ) : (
    <Tag value="Pending" severity="warning" icon="pi pi-clock" />
  );
}

/**
 * A saved page's custom domain (issue 48): whether it is proved, the DNS TXT record that proves it, and Check now.
 * A pending domain serves nothing; Beacon looks for the record daily, or at once here.
 */
export function StatusPageDomain({ page }: { page: StatusPage }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const [refusal, setRefusal] = useState<string | null>(null);
  const check = useMutation({
    mutationFn: () => verifyStatusPageDomain(api, page.handle),
    onSuccess: (checked) => {
      setRefusal(null);
      storeStatusPage(queryClient, checked);
      enqueue(checked.custom_domain_status === 'verified' ? DOMAIN_VERIFIED : DOMAIN_STILL_PENDING);
    },
    onError: (error) => setRefusal(error instanceof ApiError ? error.firstError() : DOMAIN_CHECK_FAILED),
  });
  const { custom_domain: domain, custom_domain_status: status, custom_domain_record: record } = page;
  if (!domain || !status || !record) return null;
  const checkedAt = page.custom_domain_checked_at;
  return (
    <Card>
      <section aria-labelledby="status-page-domain-title" className="flex flex-column gap-3">
        <div className="flex flex-wrap align-items-center gap-2">
          <h2 id="status-page-domain-title" className="text-xl font-semibold m-0">
            Custom domain
          </h2>
          <DomainStatusTag status={status} />
        </div>
        <p className="m-0 text-700 beacon-status-admin-measure beacon-editor-wrap">
          {status === 'verified' ? (
            <>
              <strong>{domain}</strong> serves this page. Keep the record below: Beacon checks it every day, and the
              domain stops serving the page once the record is gone.
            </>
          ) : (
            <>
              <strong>{domain}</strong> serves nothing until it proves it is yours. Add this TXT record at your DNS
              provider, then check it here (Beacon also checks every day).
            </>
          )}
        </p>
        <dl className="beacon-status-admin-facts beacon-status-admin-record m-0" aria-label="DNS record">
          <div>
            <dt>Type</dt>
            <dd>{record.type}</dd>
          </div>
          <div>
            <dt>Name</dt>
            <dd>
              <code>{record.name}</code>
            </dd>
          </div>
          <div>
            <dt>Value</dt>
            <dd>
              <code>{record.value}</code>
            </dd>
          </div>
        </dl>
        {checkedAt && (
          <p className="m-0 text-700">
            Last checked <time dateTime={checkedAt}>{fromNow(checkedAt)}</time>
            {page.custom_domain_check_error && (
              <>
                : <span className="beacon-editor-wrap">{page.custom_domain_check_error}</span>
              </>
            )}
          </p>
        )}
        {refusal && (
          <p className="m-0 p-error" role="alert">
            {refusal}
          </p>
        )}
        <div>
          <Button
            type="button"
            label="Check now"
            icon="pi pi-refresh"
            outlined
            loading={check.isPending}
            onClick={() => check.mutate()}
            aria-label={`Check the DNS record of ${domain} now`}
          />
        </div>
      </section>
    </Card>
  );
}
