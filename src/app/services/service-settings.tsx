import { useQuery } from '@tanstack/react-query';
import { Card } from 'primereact/card';
import type { ComponentType } from 'react';
import type { Service } from '../../contract/catalogue.js';
import { autocompleteOperations } from '../../contract/operations/autocomplete.js';
import {
  HEALTHS,
  healthLabel,
  STAGES,
  stageLabel,
  VISIBILITIES,
  visibilityLabel,
  type Health,
  type Stage,
  type Visibility,
} from '../../domain/catalogue.js';
import { keys } from '../api/query-keys.js';
import { useAuth } from '../session/auth-context.js';
import { DeleteCard } from '../components/delete-card.js';
import { MANAGED_SERVICE_FIELDS, ManagedMark } from '../components/managed-mark.js';
import { FieldGroup } from '../components/field-group.js';
import { ImageSetting } from '../components/image-setting.js';
import { ActionSelect } from '../components/labelled-select.js';
import { useSnackbar } from '../components/snackbars.js';
import { OwnerSetting } from './owner-picker.js';
import { deleteService, getOwnerTeamsQueryOptions, serviceEdits } from './service-api.js';
import { ServiceLinksSetting } from './service-links.js';
import { ServiceChannels } from './service-channels.js';

export const DELETE_SERVICE_CONFIRM = 'Are you sure you want to delete this service?';

/** A managed service is deleted by removing it from its file: said instead of the button. */
function ManagedDelete({ service }: { service: Service }) {
  const managed = service.managed_by!;
  return (
    <Card title={<h2 className="text-xl font-semibold m-0">Delete Service</h2>}>
      <p className="m-0 text-700">
        This service is managed in {managed.source}: remove it from <code>{managed.path}</code> to delete it.
      </p>
    </Card>
  );
}

/** Name and description as the file says them, in place of the fields. */
function ManagedFields({ service }: { service: Service }) {
  return (
    <Card title={<h2 className="text-xl font-semibold m-0">Service</h2>}>
      <dl className="m-0 flex flex-column gap-3">
        <div>
          <dt className="text-600 text-sm">Name</dt>
          <dd className="m-0 mt-1">{service.name}</dd>
        </div>
        <div>
          <dt className="text-600 text-sm">Description</dt>
          <dd className="m-0 mt-1" style={{ whiteSpace: 'pre-line' }}>
            {service.description ?? '—'}
          </dd>
        </div>
      </dl>
      <ManagedMark managedBy={service.managed_by} what={MANAGED_SERVICE_FIELDS} />
    </Card>
  );
}

function DeleteService({ service }: { service: Service }) {
  return (
    <DeleteCard
      label="Delete Service"
      note="Deleting a service removes it from the catalogue for everyone."
      question={DELETE_SERVICE_CONFIRM}
      remove={(api) => deleteService(api, service.handle)}
      deleted="Service Delete"
      leaveTo="/services"
      forget={(queryClient) => {
        queryClient.removeQueries({ queryKey: keys.service(service.handle) });
        void queryClient.invalidateQueries({ queryKey: keys.services() });
        void queryClient.invalidateQueries({ queryKey: keys.anyTeam() });
      }}
    />
  );
}

/** Settings (editors only, spec/catalogue.md 2.1): photo, name, description, owner, visibility, stage, health. */
export function ServiceSettings({
  service,
  onUpdated,
  cards = [],
}: {
  service: Service;
  onUpdated: (service: Service) => void;
  /** The other features' cards, before Delete Service (the pages export). */
  cards?: ReadonlyArray<ComponentType<{ service: Service }>>;
}) {
  const { api } = useAuth();
  const { enqueue } = useSnackbar();
  const { data: teams } = useQuery(getOwnerTeamsQueryOptions(api));
  const edits = serviceEdits(api, service.handle);
  // A catalogue source's file decides these: shown, not edited here.
  const managed = service.managed_by;

  // Each call replaces the service with the answer and says so; a failure leaves it unchanged.
  const apply = (message: string) => (updated: Service) => {
    onUpdated(updated);
    enqueue(message);
  };
  const updated = apply('Service Updated');
  const patch = async (body: { name?: string; description?: string | null }) => updated(await edits.update(body));

  return (
    <div className="flex flex-column gap-3">
      <h1 className="text-2xl font-semibold m-0">Settings</h1>
      <ImageSetting
        title="Service Photo"
        name={service.name}
        url={service.thumbnail_url}
        description="The photo identifies the service in lists, cards and the graph."
        inputId="service-photo-file"
        inputLabel="Service photo image"
        uploadLabel="Upload Photo"
        clearLabel="Clear Photo"
        upload={edits.uploadIcon}
        clear={edits.clearIcon}
        onUpdated={updated}
      />
      {managed ? (
        <ManagedFields service={service} />
      ) : (
        <Card title={<h2 className="text-xl font-semibold m-0">Service</h2>}>
          <div className="flex flex-column gap-4">
            <FieldGroup
              key={`name:${service.name}`}
              id="service-name"
              label="Name"
              saved={service.name}
              required
              onSave={(value) => patch({ name: value.trim() })}
            />
            <FieldGroup
              key={`description:${service.description ?? ''}`}
              id="service-description"
              label="Description"
              saved={service.description}
              multiline
              onSave={(value) => patch({ description: value.trim() || null })}
            />
          </div>
        </Card>
      )}
      {!managed && (
        <ServiceLinksSetting
          key={JSON.stringify(service.links)}
          service={service}
          onSave={async (links) => updated(await edits.update({ links }))}
        />
      )}
      <Card title={<h2 className="text-xl font-semibold m-0">Status</h2>}>
        <div className="grid">
          <div className="col-12 md:col-6">
            {managed ? (
              <ReadOnlySetting label="Owner" value={service.owner.name} />
            ) : (
              <OwnerSetting
                key={service.owner.id}
                owner={service.owner}
                teams={teams?.items ?? []}
                total={teams?.total ?? 0}
                search={(q) => api.call(autocompleteOperations.autocompleteTeams, { query: { q } })}
                onChange={(id) => edits.reparent(id).then(apply('Service Owner Updated'))}
              />
            )}
          </div>
          <div className="col-12 md:col-6">
            <ActionSelect<Visibility>
              id="service-visibility"
              label="Visibility"
              value={service.visibility}
              options={VISIBILITIES.map((value) => ({ label: visibilityLabel(value), value }))}
              onChange={(visibility) =>
                edits.changeVisibility({ visibility }).then(apply('Service Visibility Updated'))
              }
            />
          </div>
          <div className="col-12 md:col-6">
            {managed ? (
              <ReadOnlySetting label="Stage" value={stageLabel(service.stage)} />
            ) : (
              <ActionSelect<Stage>
                id="service-stage"
                label="Stage"
                value={service.stage}
                options={STAGES.map((value) => ({ label: stageLabel(value), value }))}
                onChange={(stage) => edits.changeStage({ stage }).then(apply('Service Stage Updated'))}
              />
            )}
          </div>
          <div className="col-12 md:col-6">
            <ActionSelect<Health>
              id="service-health"
              label="Health Status"
              value={service.health}
              options={HEALTHS.map((value) => ({ label: healthLabel(value), value }))}
              onChange={(health) => edits.changeHealth({ health }).then(apply('Service Health Updated'))}
            />
          </div>
        </div>
      </Card>
      <ServiceChannels service={service} />
      {cards.map((Extra, index) => (
        <Extra key={index} service={service} />
      ))}
      {managed ? <ManagedDelete service={service} /> : <DeleteService service={service} />}
    </div>
  );
}

/** A setting a catalogue file decides: its value as text, where the control would be. */
function ReadOnlySetting({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex flex-column gap-2">
      <span className="font-semibold">{label}</span>
      <span>{value}</span>
    </div>
  );
}
