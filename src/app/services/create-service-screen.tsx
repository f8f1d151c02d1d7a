import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import type { ProfileRef } from '../../contract/catalogue.js';
import { isHandle, isRequired, messages } from '../../domain/validators.js';
import { ApiError } from '../api/client.js';
import { keys } from '../api/query-keys.js';
import { useAuth } from '../session/auth-context.js';
import { HandleField, useHandleAvailability } from '../components/handle-field.js';
import {
  handleTyping,
  serverErrorsOf,
  TextField,
  useShownErrors,
  useSlugField,
  type ServerErrors,
} from '../components/form.js';
import { Spinner } from '../components/status-screens.js';
import { useBreadcrumb } from '../shell/breadcrumb.js';
import { createService, replaceService } from './service-api.js';
import { getTeamQueryOptions, getUserTeamsQueryOptions } from '../api/shared-queries.js';
import { chosenProfile, ProfileSearch } from '../components/profile-search.js';
import { searchesOwners, teamsMatching } from './owner-picker.js';
import { servicePath, teamPath } from '../routing/paths.js';

const CREATE_FAILED = 'Unable to create the service';

/**
 * The Owner field: the user's own teams where they may create services. Up to OWNER_PICKER_LIST_MAX a list;
 * past that a debounced search over the same teams.
 */
function OwnerSelect({
  username,
  value,
  onChange,
  error,
}: {
  username: string;
  value: string | null;
  onChange(team: string | null): void;
  error: string | null;
}) {
  const { api } = useAuth();
  const { data, isPending } = useQuery(getUserTeamsQueryOptions(api, username));
  // Only teams the user may create services for: admins', and members' where the team's policy allows.
  const teams = (Array.isArray(data) ? data : []).filter((team) => team.can_create_services);
  const [typed, setTyped] = useState<ProfileRef | string>('');
  const errorId = 'create-service-owner-error';
  return (
    <div className="flex flex-column gap-1">
      <label htmlFor="create-service-owner">Owner</label>
      {searchesOwners(teams.length) ? (
        <ProfileSearch
          inputId="create-service-owner"
          value={typed}
          dropdown
          placeholder="Search your teams"
          invalid={Boolean(error)}
          ariaDescribedBy={error ? errorId : undefined}
          search={(q) => Promise.resolve(teamsMatching(teams, q))}
          onChange={(next) => {
            setTyped(next);
            onChange(chosenProfile(next)?.handle ?? null);
          }}
        />
      ) : (
        <Dropdown
          inputId="create-service-owner"
          ariaLabel="Owner"
          value={value}
          options={teams.map((team) => ({ label: team.name, value: team.handle }))}
          placeholder={isPending ? 'Loading teams' : 'Select a team'}
          emptyMessage="No Teams"
          disabled={isPending}
          onChange={(event) => onChange(event.value as string)}
          className={error ? 'p-invalid w-full' : 'w-full'}
          pt={{ select: { 'aria-label': 'Owner' } }}
        />
      )}
      {error && (
        <small id={errorId} className="p-error">
          {error}
        </small>
      )}
    </div>
  );
}

/** The breadcrumb: the team's when created from a team, else the services list's. */
function CreateServiceCrumbs({ team }: { team: string | undefined }) {
  const { api } = useAuth();
  const { data } = useQuery({ ...getTeamQueryOptions(api, team ?? ''), enabled: team !== undefined });
  useBreadcrumb(
    team
      ? {
          name: data?.name ?? team,
          to: teamPath(team),
          avatarUrl: data?.thumbnail_url,
          crumbs: [{ label: 'Services', to: `${teamPath(team)}/services` }, { label: 'Create Service' }],
        }
      : { name: 'Services', to: '/services', crumbs: [{ label: 'Create Service' }] },
  );
  return null;
}

/**
 * Create Service at /services/new and /teams/:id/services/new (spec/platform.md): Name, Handle (filled from
 * the name, checked when left), Owner (the user's own teams; not asked when the route names the team).
 */
export default function CreateServiceScreen() {
  const { id: routeTeam } = useParams();
  const { api, state } = useAuth();
  const username = state.user?.handle ?? state.username ?? '';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const handle = useSlugField(name, handleTyping);
  const availability = useHandleAvailability('service', handle.value);
  const [owner, setOwner] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<ServerErrors | null>(null);
  const team = routeTeam ?? owner;

  const form = useShownErrors({
    name: isRequired(name) ? null : messages.required,
    handle: !isRequired(handle.value) ? messages.required : !isHandle(handle.value) ? messages.handleNotValid : null,
    owner: team ? null : messages.required,
  });
  const valid = form.valid && availability.status !== 'taken' && availability.status !== 'checking';

  async function submit(event: FormEvent) {
    event.preventDefault();
    form.attempt();
    if (!valid || !team || pending) return;
    setPending(true);
    setFailure(null);
    try {
      const created = await createService(api, team, { name: name.trim(), handle: handle.value });
      replaceService(queryClient, created);
      void queryClient.invalidateQueries({ queryKey: keys.services() });
      void queryClient.invalidateQueries({ queryKey: keys.team(team) });
      navigate(servicePath(created.handle));
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) availability.markTaken();
      // docs/decisions.md#open-decisions: the server's field errors next to the fields, its message below them; never a
      // toast.
      else setFailure(serverErrorsOf(error, CREATE_FAILED));
      setPending(false);
    }
  }

  if (!username) return <Spinner />;
  return (
    <section className="surface-card border-round shadow-1 p-4 mx-auto" style={{ maxWidth: 560 }}>
      <CreateServiceCrumbs team={routeTeam} />
      <h1 className="text-2xl font-semibold mt-0 mb-4">Create Service</h1>
      <form onSubmit={submit} className="flex flex-column gap-3" noValidate>
        <TextField
          id="create-service-name"
          label="Name"
          value={name}
          autoComplete="off"
          onChange={(value) => {
            setName(value);
            handle.sourceChanged();
          }}
          // A handle filled from the name is checked as soon as the name is done.
          onBlur={() => {
            form.touch(handle.edited ? 'name' : 'handle', 'name');
            if (!handle.edited) availability.check();
          }}
          error={form.shown('name') ?? failure?.fields.name ?? null}
        />
        <HandleField
          id="create-service-handle"
          value={handle.value}
          onChange={handle.edit}
          onBlur={() => form.touch('handle')}
          error={form.shown('handle') ?? failure?.fields.handle ?? null}
          availability={availability}
        />
        {!routeTeam && (
          <OwnerSelect
            username={username}
            value={owner}
            onChange={(value) => {
              setOwner(value);
              form.touch('owner');
            }}
            error={form.shown('owner')}
          />
        )}
        {failure && (
          <small className="p-error" role="alert">
            {failure.message}
          </small>
        )}
        <Button
          type="submit"
          label="Create Service"
          className="align-self-start"
          disabled={!valid || pending}
          loading={pending}
        />
      </form>
    </section>
  );
}
