import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { Checkbox } from 'primereact/checkbox';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import type { OperationInput } from '../../contract/operation.js';
import type { SsoProvider } from '../../contract/sso.js';
import { ssoProviderOperations } from '../../contract/operations/sso.js';
import { HANDLE_PATTERN, HANDLE_RULE } from '../../domain/validators.js';
import { keys } from '../api/query-keys.js';
import { useApi } from '../session/use-api.js';
import { handleTyping, useSlugField } from '../components/form.js';
import { NotFound, Spinner } from '../components/status-screens.js';
import { useBreadcrumb } from '../shell/breadcrumb.js';
import { useSnackbar } from '../components/snackbars.js';
import { getSsoProviderQueryOptions } from './integrations-api.js';

export const SSO_CREATED = 'SSO Provider was created';
export const SSO_UPDATED = 'SSO Provider was updated';
export const SSO_FAILED = 'There was an error while updating your SSO Provider';
const COPIED_MS = 1000;

type Update = OperationInput<typeof ssoProviderOperations.updateSsoProvider>['body'];

function SettingsCard({
  title,
  id,
  locked,
  children,
}: {
  title: string;
  id: string;
  locked: boolean;
  children: ReactNode;
}) {
  return (
    <Card title={<h2 className="text-xl font-semibold m-0">{title}</h2>} id={id}>
      {locked && (
        <p className="mt-0 text-600 text-sm flex align-items-center gap-2">
          <i className="pi pi-lock" aria-hidden="true" />
          <span>Available once the provider is created.</span>
        </p>
      )}
      <fieldset disabled={locked} className="border-none p-0 m-0 flex flex-column gap-3 min-w-0" aria-label={title}>
        {children}
      </fieldset>
    </Card>
  );
}

function TextField({
  id,
  label,
  value,
  onChange,
  disabled,
  error,
  placeholder,
}: {
  id: string;
  label: string;
  value: string;
  onChange?: (value: string) => void;
  disabled?: boolean;
  error?: string | null;
  placeholder?: string;
}) {
  return (
    <div className="flex flex-column gap-1">
      <label htmlFor={id}>{label}</label>
      <InputText
        id={id}
        value={value}
        disabled={disabled}
        placeholder={placeholder}
        invalid={Boolean(error)}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChange?.(event.target.value)}
      />
      {error && (
        <small id={`${id}-error`} className="p-error">
          {error}
        </small>
      )}
    </div>
  );
}

function CheckField({
  id,
  label,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <div className="flex align-items-center gap-2">
      <Checkbox inputId={id} checked={checked} onChange={(event) => onChange(Boolean(event.checked))} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

/**
 * A read-only value to give the identity provider, with a Copy button ('Copied' for a second); `multiline` for a
 * certificate.
 */
function CopyField({
  id,
  label,
  value,
  multiline = false,
}: {
  id: string;
  label: string;
  value: string;
  multiline?: boolean;
}) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <div className="flex flex-column gap-1">
      <label htmlFor={id}>{label}</label>
      <div className={`flex gap-2 ${multiline ? 'align-items-start' : 'align-items-center'}`}>
        {multiline ? (
          <InputTextarea
            id={id}
            value={value}
            readOnly
            rows={6}
            spellCheck={false}
            className="flex-1 min-w-0 font-monospace text-sm"
          />
        ) : (
          <InputText id={id} value={value} readOnly className="flex-1 min-w-0" />
        )}
        <Button
          type="button"
          label={copied ? 'Copied' : 'Copy'}
          icon="pi pi-copy"
          outlined
          aria-label={`${copied ? 'Copied' : 'Copy'} ${label}`}
          disabled={!value}
          onClick={() => {
            void navigator.clipboard?.writeText(value).catch(() => undefined);
            setCopied(true);
          }}
        />
      </div>
    </div>
  );
}

function SaveButton({
  label,
  dirty,
  valid,
  pending,
}: {
  label: string;
  dirty: boolean;
  valid: boolean;
  pending: boolean;
}) {
  if (!dirty) return null;
  return (
    <div>
      <Button type="submit" label={label} disabled={!valid || pending} loading={pending} />
    </div>
  );
}

/**
 * General Settings: name, handle (filled from the name while new, fixed once created), default, enabled; Create
 * when new.
 */
function GeneralSettings({ provider }: { provider: SsoProvider | null }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { enqueue } = useSnackbar();
  const saved = {
    name: provider?.name ?? '',
    is_default: provider?.is_default ?? false,
    sso_enabled: provider?.sso_enabled ?? true,
  };
  const [draft, setDraft] = useState(saved);
  // Spec platform 5: a new provider's handle follows the name (slugified) until the user types in it; an
  // existing provider's handle is fixed.
  const slug = useSlugField(provider ? '' : draft.name, handleTyping);
  const handle = provider ? provider.handle : slug.value;
  const dirty = provider === null || JSON.stringify(draft) !== JSON.stringify(saved);
  const handleError = provider === null && handle !== '' && !HANDLE_PATTERN.test(handle) ? HANDLE_RULE : null;
  const valid = HANDLE_PATTERN.test(handle) && draft.name.trim() !== '';

  const save = useMutation({
    mutationFn: () => {
      const fields = { name: draft.name.trim(), is_default: draft.is_default, sso_enabled: draft.sso_enabled };
      return provider
        ? api.call(ssoProviderOperations.updateSsoProvider, { params: { provider: provider.handle }, body: fields })
        : api.call(ssoProviderOperations.createSsoProvider, { body: { handle, ...fields } });
    },
    onSuccess: (next) => {
      queryClient.setQueryData(keys.ssoProvider(next.handle), next);
      void queryClient.invalidateQueries({ queryKey: keys.ssoProviders(), exact: true });
      if (provider) {
        enqueue(SSO_UPDATED);
      } else {
        enqueue(SSO_CREATED);
        navigate(`/admin/sso-providers/${encodeURIComponent(next.handle)}`, { replace: true });
      }
    },
    onError: () => enqueue(SSO_FAILED, 'error'),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (dirty && valid && !save.isPending) save.mutate();
  };
  return (
    <SettingsCard title="General Settings" id="sso-general" locked={false}>
      <form className="flex flex-column gap-3" onSubmit={submit} noValidate>
        <TextField
          id="sso-name"
          label="Name"
          value={draft.name}
          placeholder="Provider Name"
          onChange={(name) => {
            setDraft({ ...draft, name });
            slug.sourceChanged();
          }}
        />
        <TextField
          id="sso-handle"
          label="Handle"
          value={handle}
          disabled={provider !== null}
          placeholder="provider-handle"
          error={handleError}
          onChange={slug.edit}
        />
        <CheckField
          id="sso-default"
          label="Default provider (offered on the login screen)"
          checked={draft.is_default}
          onChange={(is_default) => setDraft({ ...draft, is_default })}
        />
        <CheckField
          id="sso-enabled"
          label="Single sign-on enabled"
          checked={draft.sso_enabled}
          onChange={(sso_enabled) => setDraft({ ...draft, sso_enabled })}
        />
        <SaveButton label={provider ? 'Save' : 'Create'} dirty={dirty} valid={valid} pending={save.isPending} />
      </form>
    </SettingsCard>
  );
}

/** Saves part of an existing provider, with the spec's toasts. */
function useUpdate(provider: SsoProvider | null) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  return useMutation({
    mutationFn: (body: Update) =>
      api.call(ssoProviderOperations.updateSsoProvider, { params: { provider: provider!.handle }, body }),
    onSuccess: (next) => {
      queryClient.setQueryData(keys.ssoProvider(next.handle), next);
      void queryClient.invalidateQueries({ queryKey: keys.ssoProviders(), exact: true });
      enqueue(SSO_UPDATED);
    },
    onError: () => enqueue(SSO_FAILED, 'error'),
  });
}

/** SAML Settings: this workspace as the service provider (to give the identity provider) and single logout. */
function SamlSettings({ provider }: { provider: SsoProvider | null }) {
  const update = useUpdate(provider);
  const saved = provider?.slo_enabled ?? false;
  const [slo, setSlo] = useState(saved);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (provider && slo !== saved) update.mutate({ slo_enabled: slo });
  };
  return (
    <SettingsCard title="SAML Settings" id="sso-saml" locked={provider === null}>
      <form className="flex flex-column gap-3" onSubmit={submit} noValidate>
        <CopyField id="sso-sp-entity-id" label="Entity ID" value={provider?.sp.entity_id ?? ''} />
        <CopyField id="sso-sp-acs-url" label="ACS URL" value={provider?.sp.acs_url ?? ''} />
        <CopyField id="sso-sp-cert" label="Signing certificate" value={provider?.sp.cert ?? ''} multiline />
        <CheckField id="sso-slo-enabled" label="Single logout enabled" checked={slo} onChange={setSlo} />
        <SaveButton label="Save" dirty={slo !== saved} valid pending={update.isPending} />
      </form>
    </SettingsCard>
  );
}

const isHttpUrl = (value: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/** Identity Provider Settings: its SSO and SLO URLs, entity id, and its signing certificate. */
function IdentityProviderSettings({ provider }: { provider: SsoProvider | null }) {
  const update = useUpdate(provider);
  const saved = {
    sso_url: provider?.idp.sso_url ?? '',
    slo_url: provider?.idp.slo_url ?? '',
    entity_id: provider?.idp.entity_id ?? '',
  };
  const [draft, setDraft] = useState(saved);
  const [certificate, setCertificate] = useState('');
  const hasCertificate = provider?.idp.has_x509 ?? false;
  const [showCertificate, setShowCertificate] = useState(!hasCertificate);
  const dirty = JSON.stringify(draft) !== JSON.stringify(saved) || certificate.trim() !== '';
  const urlError = (value: string) => (value.trim() && !isHttpUrl(value.trim()) ? 'Not a valid URL' : null);
  const valid = !urlError(draft.sso_url) && !urlError(draft.slo_url);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!provider || !dirty || !valid) return;
    const orNull = (value: string) => value.trim() || null;
    update.mutate({
      idp: {
        sso_url: orNull(draft.sso_url),
        slo_url: orNull(draft.slo_url),
        entity_id: orNull(draft.entity_id),
        // Spec: the certificate is merged into idp as x509 (only when one was entered).
        ...(certificate.trim() ? { x509: certificate.trim() } : {}),
      },
    });
  };
  return (
    <SettingsCard title="Identity Provider Settings" id="sso-idp" locked={provider === null}>
      <form className="flex flex-column gap-3" onSubmit={submit} noValidate>
        <TextField
          id="sso-idp-sso-url"
          label="SSO URL"
          value={draft.sso_url}
          error={urlError(draft.sso_url)}
          onChange={(sso_url) => setDraft({ ...draft, sso_url })}
        />
        <TextField
          id="sso-idp-slo-url"
          label="SLO URL"
          value={draft.slo_url}
          error={urlError(draft.slo_url)}
          onChange={(slo_url) => setDraft({ ...draft, slo_url })}
        />
        <TextField
          id="sso-idp-entity-id"
          label="Entity ID"
          value={draft.entity_id}
          onChange={(entity_id) => setDraft({ ...draft, entity_id })}
        />
        {showCertificate ? (
          <div className="flex flex-column gap-1">
            <label htmlFor="sso-idp-certificate">Certificate</label>
            <InputTextarea
              id="sso-idp-certificate"
              rows={5}
              className="font-monospace text-sm"
              placeholder="-----BEGIN CERTIFICATE-----"
              value={certificate}
              onChange={(event) => setCertificate(event.target.value)}
            />
          </div>
        ) : (
          <div className="flex align-items-center gap-2 flex-wrap">
            <span className="text-700">
              <i className="pi pi-verified mr-2" aria-hidden="true" />A certificate is set.
            </span>
            <Button type="button" label="Update Certificate" outlined onClick={() => setShowCertificate(true)} />
          </div>
        )}
        <SaveButton label="Save" dirty={dirty} valid={valid} pending={update.isPending} />
      </form>
    </SettingsCard>
  );
}

/** Authentication Settings: where users start a login or logout through this provider. */
function AuthenticationSettings({ provider }: { provider: SsoProvider | null }) {
  return (
    <SettingsCard title="Authentication Settings" id="sso-auth" locked={provider === null}>
      <CopyField id="sso-login-url" label="Login URL" value={provider?.login_url ?? ''} />
      <CopyField id="sso-logout-url" label="Logout URL" value={provider?.logout_url ?? ''} />
    </SettingsCard>
  );
}

function ProviderCards({ provider }: { provider: SsoProvider | null }) {
  // Each card starts afresh from what was saved (after a save the provider is the server's answer).
  const version = JSON.stringify(provider);
  return (
    <div className="flex flex-column gap-3">
      <h1 className="text-2xl font-semibold m-0">{provider ? provider.name : 'New SSO Provider'}</h1>
      <GeneralSettings key={`general:${version}`} provider={provider} />
      <SamlSettings key={`saml:${version}`} provider={provider} />
      <IdentityProviderSettings key={`idp:${version}`} provider={provider} />
      <AuthenticationSettings provider={provider} />
    </div>
  );
}

function ExistingProvider({ handle }: { handle: string }) {
  const api = useApi();
  const query = useQuery(getSsoProviderQueryOptions(api, handle));
  if (query.isPending) return <Spinner label="Loading SSO provider" />;
  if (!query.data) return <NotFound title="SSO Provider not found" text="The SSO provider was not found" />;
  return <ProviderCards provider={query.data} />;
}

/**
 * /admin/sso-providers/new and /admin/sso-providers/{handle} (spec/platform.md "Admin area", section 4): four
 * cards; pending until the provider loads (at once when new); reset on leaving.
 */
export function SsoProviderScreen() {
  useBreadcrumb({ name: 'Admin', to: '/admin' });
  const { handle } = useParams();
  return handle ? <ExistingProvider key={handle} handle={handle} /> : <ProviderCards provider={null} />;
}
