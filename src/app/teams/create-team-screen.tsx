import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { Team } from '../../contract/catalogue.js';
import { teamOperations } from '../../contract/operations/teams.js';
import { isHandle, isRequired, messages } from '../../domain/validators.js';
import { ApiError } from '../api/client.js';
import { keys } from '../api/query-keys.js';
import { useApi } from '../session/use-api.js';
import { handleTyping, serverErrorsOf, TextField, useShownErrors, useSlugField } from '../components/form.js';
import { HandleField, useHandleAvailability } from '../components/handle-field.js';
import { MessageCard, Spinner } from '../components/status-screens.js';
import { TEAM_NOT_FOUND } from './teams-api.js';
import { teamPath } from '../routing/paths.js';
import { getTeamQueryOptions } from '../api/shared-queries.js';

function CreateTeamForm({ parent }: { parent: Team | null }) {
  const api = useApi();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const handle = useSlugField(name, handleTyping);
  const availability = useHandleAvailability('team', handle.value);
  const form = useShownErrors({
    name: isRequired(name) ? null : messages.required,
    handle: !isRequired(handle.value) ? messages.required : !isHandle(handle.value) ? messages.handleNotValid : null,
  });
  const create = useMutation({
    mutationFn: () => {
      const body = { name: name.trim(), handle: handle.value };
      return parent
        ? api.call(teamOperations.createSubTeam, { params: { team: parent.handle }, body })
        : api.call(teamOperations.createTeam, { body });
    },
    onSuccess: (team) => {
      void queryClient.invalidateQueries({ queryKey: keys.teams() });
      // The parent's sub-teams list and its count.
      if (parent) void queryClient.invalidateQueries({ queryKey: keys.team(parent.handle) });
      navigate(teamPath(team.handle));
    },
    // Spec: a failed create sets an error flag; a taken handle (409) shows as taken, and any other refusal shows
    // the server's field errors next to the fields (docs/decisions.md#open-decisions: a user must learn why), never a
    // toast.
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409) availability.markTaken();
    },
  });
  const refused =
    create.error && !(create.error instanceof ApiError && create.error.status === 409)
      ? serverErrorsOf(create.error, CREATE_TEAM_FAILED)
      : null;
  // As in Create Service: not while the handle is known taken or still being checked.
  const ready =
    form.valid && availability.status !== 'taken' && availability.status !== 'checking' && !create.isPending;

  function submit(event: FormEvent) {
    event.preventDefault();
    form.attempt();
    if (ready) create.mutate();
  }

  return (
    <form onSubmit={submit} className="flex flex-column gap-3" noValidate>
      <TextField
        id="team-name"
        label="Name"
        value={name}
        onChange={(value) => {
          setName(value);
          handle.sourceChanged();
        }}
        onBlur={() => {
          // A handle filled from the name is validated and checked as soon as the name is done.
          if (handle.edited) {
            form.touch('name');
          } else {
            form.touch('name', 'handle');
            availability.check();
          }
        }}
        error={form.shown('name') ?? refused?.fields.name ?? null}
      />
      <HandleField
        id="team-handle"
        value={handle.value}
        onChange={handle.edit}
        onBlur={() => form.touch('handle')}
        error={form.shown('handle') ?? refused?.fields.handle ?? null}
        availability={availability}
      />
      {refused && (
        <small className="p-error" role="alert">
          {refused.message}
        </small>
      )}
      <Button type="submit" label="Create Team" disabled={!ready} loading={create.isPending} />
    </form>
  );
}

const CREATE_TEAM_FAILED = 'Unable to create the team';

/** Create Team at /teams/new, and a sub-team at /teams/:id/teams/new (spec/platform.md, Create Team). */
export default function CreateTeamScreen() {
  const { id } = useParams();
  const api = useApi();
  const parent = useQuery({ ...getTeamQueryOptions(api, id ?? ''), enabled: Boolean(id) });

  if (id && parent.isPending) return <Spinner label="Loading team" />;
  if (id && parent.isError) return <MessageCard title={TEAM_NOT_FOUND} icon="pi-map" />;
  const parentTeam = id ? (parent.data ?? null) : null;

  return (
    <section className="flex justify-content-center">
      <Card className="w-full" style={{ maxWidth: '32rem' }}>
        <h1 className="text-2xl font-semibold mt-0 mb-2">{parentTeam ? 'Create Sub-team' : 'Create Team'}</h1>
        {parentTeam && (
          <p className="mt-0 mb-3 text-700">
            Part of <Link to={teamPath(parentTeam.handle)}>{parentTeam.name}</Link>
          </p>
        )}
        <CreateTeamForm parent={parentTeam} />
      </Card>
    </section>
  );
}
