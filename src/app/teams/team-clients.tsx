import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { Checkbox } from 'primereact/checkbox';
import { InputTextarea } from 'primereact/inputtextarea';
import { useEffect, useState } from 'react';
import type { Team } from '../../contract/catalogue.js';
import { clientCreate, type Client, type ClientCreate } from '../../contract/clients.js';
import { clientOperations } from '../../contract/operations/clients.js';
import { CLIENT_SCOPES, WORKSPACE_WIDE_SCOPES, type ClientScope } from '../../domain/scopes.js';
import { keys } from '../api/query-keys.js';
import { useApi } from '../session/use-api.js';
import { TextField, useShownErrors } from '../components/form.js';
import { Spinner } from '../components/status-screens.js';
import { useSnackbar } from '../components/snackbars.js';
import { getTeamClientsQueryOptions } from './teams-api.js';

/** Spec catalogue 2.3: shown under a secret, which the server never gives out again. */
export const SECRET_HINT = 'Copy it now, you will not be able to retrieve it afterwards';
/** Spec catalogue 9: the Copy button says 'Copied' for this long. */
export const COPIED_MS = 1000;

export type ClientDraft = Pick<ClientCreate, 'name' | 'description' | 'scopes'>;

/** Spec catalogue 5, in its words; the rules are the contract's (name and description required, a scope at least). */
export function clientErrors(draft: ClientDraft) {
  const { name, description, scopes } = clientCreate.shape;
  return {
    name: name.safeParse(draft.name).success ? null : 'Name is required',
    description: description.safeParse(draft.description).success ? null : 'Description is required',
    scopes: scopes.safeParse(draft.scopes).success ? null : 'Pick at least one scope',
  };
}

/** Whether the draft differs from what is saved (scopes compared as sets). */
export function clientChanged(draft: ClientDraft, saved: ClientDraft): boolean {
  const sameScopes =
    draft.scopes.length === saved.scopes.length && draft.scopes.every((scope) => saved.scopes.includes(scope));
  return draft.name.trim() !== saved.name || draft.description.trim() !== saved.description || !sameScopes;
}

const EMPTY: ClientDraft = { name: '', description: '', scopes: [] };

const draftOf = (client: Client | null): ClientDraft =>
  client ? { name: client.name, description: client.description, scopes: [...client.scopes] } : EMPTY;

/** The secret, once: the hint and a Copy button that says 'Copied' for a second. */
function SecretBox({ secret }: { secret: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <div className="flex flex-column gap-1 p-3 border-1 border-round surface-border">
      <label htmlFor="client-secret">Client Secret</label>
      <div className="flex gap-2 align-items-center">
        <code id="client-secret" className="flex-1 overflow-auto" aria-describedby="client-secret-hint">
          {secret}
        </code>
        <Button
          type="button"
          label={copied ? 'Copied' : 'Copy'}
          icon={copied ? 'pi pi-check' : 'pi pi-copy'}
          outlined
          onClick={() => {
            void navigator.clipboard?.writeText(secret);
            setCopied(true);
          }}
        />
      </div>
      <small id="client-secret-hint" className="text-600">
        {SECRET_HINT}
      </small>
    </div>
  );
}

/**
 * The client form: Name, Description, Scopes. Saving a client that has a handle updates it, otherwise creates
 * it (and the form goes on with the created client, showing its secret once). Save only when valid and changed.
 */
function ClientForm({ team, initial, onDone }: { team: Team; initial: Client | null; onDone(): void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const [client, setClient] = useState<Client | null>(initial);
  const [draft, setDraft] = useState<ClientDraft>(draftOf(initial));
  const [secret, setSecret] = useState<string | null>(null);
  const errors = clientErrors(draft);
  const { shown, touch, valid } = useShownErrors(errors);
  const changed = clientChanged(draft, draftOf(client));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: keys.teamClients(team.handle) });

  const save = useMutation({
    mutationFn: () => {
      const body = { name: draft.name.trim(), description: draft.description.trim(), scopes: draft.scopes };
      return client
        ? api.call(clientOperations.updateClient, { params: { team: team.handle, client: client.handle }, body })
        : api.call(clientOperations.createClient, { params: { team: team.handle }, body });
    },
    onSuccess: (saved) => {
      enqueue(client ? 'Team Client Updated' : 'Team Client Created');
      if (saved.client_secret) setSecret(saved.client_secret);
      setClient(saved);
      setDraft(draftOf(saved));
      refresh();
    },
  });

  const newSecret = useMutation({
    mutationFn: (handle: string) =>
      api.call(clientOperations.updateClientSecret, { params: { team: team.handle, client: handle } }),
    onSuccess: (saved) => {
      enqueue('Team Client Secret Updated');
      setSecret(saved.client_secret ?? null);
    },
  });

  const edit = (patch: Partial<ClientDraft>, field: keyof ClientDraft) => {
    setDraft((current) => ({ ...current, ...patch }));
    // Spec 5: validated on change.
    touch(field);
  };
  const toggleScope = (scope: ClientScope, on: boolean) =>
    edit({ scopes: on ? [...draft.scopes, scope] : draft.scopes.filter((s) => s !== scope) }, 'scopes');

  return (
    <form
      className="flex flex-column gap-3"
      aria-label={client ? `Client ${client.name}` : 'New client'}
      onSubmit={(event) => {
        event.preventDefault();
        if (valid && changed && !save.isPending) save.mutate();
      }}
    >
      <TextField
        id="client-name"
        label="Name"
        value={draft.name}
        onChange={(name) => edit({ name }, 'name')}
        error={shown('name')}
      />
      <div className="flex flex-column gap-1">
        <label htmlFor="client-description">Description</label>
        <InputTextarea
          id="client-description"
          rows={3}
          value={draft.description}
          onChange={(event) => edit({ description: event.target.value }, 'description')}
          className={shown('description') ? 'p-invalid' : undefined}
          aria-invalid={shown('description') ? true : undefined}
          aria-describedby={shown('description') ? 'client-description-error' : undefined}
        />
        {shown('description') && (
          <small id="client-description-error" className="p-error">
            {shown('description')}
          </small>
        )}
      </div>
      <fieldset className="flex flex-column gap-2 border-none p-0 m-0" aria-describedby="client-scopes-error">
        <legend className="mb-2">Scopes</legend>
        <div className="grid m-0">
          {CLIENT_SCOPES.map((scope) => (
            <div key={scope} className="col-12 md:col-6 flex align-items-center gap-2 p-1">
              <Checkbox
                inputId={`client-scope-${scope}`}
                checked={draft.scopes.includes(scope)}
                onChange={(event) => toggleScope(scope, Boolean(event.checked))}
              />
              <label htmlFor={`client-scope-${scope}`}>
                {scope}
                {WORKSPACE_WIDE_SCOPES.includes(scope) && (
                  <span className="text-600 text-sm"> (granted by workspace admins and owners)</span>
                )}
              </label>
            </div>
          ))}
        </div>
        {shown('scopes') && (
          <small id="client-scopes-error" className="p-error">
            {shown('scopes')}
          </small>
        )}
      </fieldset>
      {client && (
        <div className="flex flex-column gap-1">
          <label htmlFor="client-id">Client ID</label>
          <code id="client-id">{client.client_id}</code>
        </div>
      )}
      {secret && <SecretBox secret={secret} />}
      <div className="flex flex-wrap justify-content-end gap-2">
        {client && !secret && (
          <Button
            type="button"
            label="Generate New Secret"
            icon="pi pi-refresh"
            outlined
            loading={newSecret.isPending}
            onClick={() => newSecret.mutate(client.handle)}
          />
        )}
        <Button type="button" label="Done" text onClick={onDone} />
        <Button type="submit" label="Save" disabled={!valid || !changed || save.isPending} loading={save.isPending} />
      </div>
    </form>
  );
}

type Mode = { kind: 'list' } | { kind: 'form'; client: Client | null };

/**
 * The Clients card of team Settings (spec/catalogue.md 2.3): the team's API clients; Add or Edit opens the form,
 * Done goes back to the list.
 */
export function TeamClientsCard({ team }: { team: Team }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const [mode, setMode] = useState<Mode>({ kind: 'list' });
  const { data, isPending } = useQuery(getTeamClientsQueryOptions(api, team.handle));

  const remove = useMutation({
    mutationFn: (client: Client) =>
      api.call(clientOperations.deleteClient, { params: { team: team.handle, client: client.handle } }),
    onSuccess: () => {
      enqueue('Team Client Removed');
      void queryClient.invalidateQueries({ queryKey: keys.teamClients(team.handle) });
    },
  });

  const title = <h2 className="text-xl font-semibold m-0">Clients</h2>;
  if (mode.kind === 'form') {
    return (
      <Card title={title}>
        <ClientForm team={team} initial={mode.client} onDone={() => setMode({ kind: 'list' })} />
      </Card>
    );
  }
  const clients = data ?? [];
  return (
    <Card title={title}>
      <div className="flex flex-column gap-3">
        <p className="m-0 text-700">API clients act for this team with the scopes you give them.</p>
        {isPending ? (
          <Spinner label="Loading clients" />
        ) : clients.length === 0 ? (
          <p className="m-0">No Clients</p>
        ) : (
          <ul className="list-none p-0 m-0 flex flex-column gap-2" aria-label="Clients">
            {clients.map((client) => (
              <li key={client.id} className="flex align-items-center gap-2">
                <div className="flex-1">
                  <div className="font-semibold">{client.name}</div>
                  <div className="text-700 text-sm">{client.description}</div>
                  {client.disabled_reason && <div className="p-error text-sm">Disabled: {client.disabled_reason}</div>}
                </div>
                <Button
                  type="button"
                  label="Edit"
                  text
                  aria-label={`Edit ${client.name}`}
                  onClick={() => setMode({ kind: 'form', client })}
                />
                <Button
                  type="button"
                  label="Remove"
                  text
                  severity="danger"
                  aria-label={`Remove ${client.name}`}
                  disabled={remove.isPending && remove.variables?.id === client.id}
                  onClick={() => remove.mutate(client)}
                />
              </li>
            ))}
          </ul>
        )}
        <div className="flex justify-content-end">
          <Button type="button" label="Add" icon="pi pi-plus" onClick={() => setMode({ kind: 'form', client: null })} />
        </div>
      </div>
    </Card>
  );
}
