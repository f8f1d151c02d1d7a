import { useQueries } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { RadioButton } from 'primereact/radiobutton';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { ProfileRef } from '../../contract/catalogue.js';
import { autocompleteOperations } from '../../contract/operations/autocomplete.js';
import { statusPageCreate, type StatusPage } from '../../contract/status-pages.js';
import { STATUS_PAGE_ACCESS, UPSTREAM_DEPTH, type StatusPageAccess } from '../../domain/status-pages.js';
import { messages } from '../../domain/validators.js';
import { ApiError } from '../api/client.js';
import { useApi } from '../session/use-api.js';
import { TextField, useShownErrors } from '../components/form.js';
import { EditorFrame, EditorNameFields, firstErrorId, useEditorSave } from '../components/editor-form.js';
import { editorHandleError } from '../components/editor-handle.js';
import { FieldError, FormCard, moveItem, RowButton } from '../components/form-parts.js';
import { PickerDialog } from '../components/picker-dialog.js';
import { chosenProfile, ProfileSearch } from '../components/profile-search.js';
import { getServiceQueryOptions } from '../services/index.js';
import {
  ACCESS_LABELS,
  createStatusPage,
  refusedSave,
  statusPagePath,
  storeStatusPage,
  updateStatusPage,
  type StatusPageUpdateBody,
} from './status-pages-api.js';

export const STATUS_PAGE_CREATED = 'Status page was created';
export const STATUS_PAGE_UPDATED = 'Status page was updated';
export const FIX_FIELDS = 'The status page was not saved: please check the fields marked below.';
/** The contract's limits on groups (status-pages.ts), as the form keeps to them. */
export const MAX_GROUPS = 50;
const MAX_GROUP_SERVICES = 500;

// ---- the draft: what the form holds, and what it sends ----

export interface DraftService {
  /** Stable across moves, so a row keeps its focus and its error. */
  key: string;
  handle: string;
}

export interface DraftGroup {
  key: string;
  name: string;
  services: DraftService[];
}

export interface StatusPageDraft {
  title: string;
  description: string;
  logo_url: string;
  access: StatusPageAccess;
  /** Typed here only; never answered by the server. */
  password: string;
  custom_domain: string;
  show_upstream: boolean;
  /** As typed (a number field's text). */
  upstream_depth: string;
  groups: DraftGroup[];
}

let lastKey = 0;
const newKey = (prefix: string) => `${prefix}${++lastKey}`;

export const newGroup = (name = ''): DraftGroup => ({ key: newKey('g'), name, services: [] });
export const newService = (handle: string): DraftService => ({ key: newKey('s'), handle });

/** A new page's draft, or the saved page's (the password left empty: empty keeps the one set). */
export function draftOf(page: StatusPage | null): StatusPageDraft {
  return {
    title: page?.title ?? '',
    description: page?.description ?? '',
    logo_url: page?.logo_url ?? '',
    access: page?.access ?? 'public',
    password: '',
    custom_domain: page?.custom_domain ?? '',
    show_upstream: page?.show_upstream ?? true,
    upstream_depth: String(page?.upstream_depth ?? UPSTREAM_DEPTH.default),
    groups: (page?.groups ?? []).map((group) => ({
      key: newKey('g'),
      name: group.name,
      services: group.services.map(newService),
    })),
  };
}

const isDepth = (value: string) => {
  const depth = Number(value);
  return value.trim() !== '' && Number.isInteger(depth) && depth >= UPSTREAM_DEPTH.min && depth <= UPSTREAM_DEPTH.max;
};

/** The body of a save (create adds the handle); a password goes only when typed for a password page. */
export function bodyOf(draft: StatusPageDraft) {
  return {
    title: draft.title.trim(),
    description: draft.description.trim(),
    logo_url: draft.logo_url.trim() || null,
    access: draft.access,
    ...(draft.access === 'password' && draft.password !== '' ? { password: draft.password } : {}),
    custom_domain: draft.custom_domain.trim().toLowerCase() || null,
    show_upstream: draft.show_upstream,
    // Kept as saved when the upstream view is off and the (then disabled) field holds no depth.
    ...(isDepth(draft.upstream_depth) ? { upstream_depth: Number(draft.upstream_depth) } : {}),
    groups: draft.groups.map((group) => ({
      name: group.name.trim(),
      services: group.services.map((service) => service.handle),
    })),
  } satisfies StatusPageUpdateBody & { title: string };
}

type Field = 'title' | 'handle' | 'description' | 'logo_url' | 'password' | 'custom_domain' | 'upstream_depth';

/** The fields in the order the form shows them (a failed submit focuses the first with an error). */
const FIELD_IDS: Record<Field, string> = {
  title: 'status-page-title',
  handle: 'status-page-handle',
  description: 'status-page-description',
  logo_url: 'status-page-logo-url',
  password: 'status-page-password',
  custom_domain: 'status-page-custom-domain',
  upstream_depth: 'status-page-upstream-depth',
};

export const PASSWORD_REQUIRED = 'Set the password visitors will type';
export const PASSWORD_SHORT = 'At least 8 characters';
export const URL_INVALID = 'A URL starting with http:// or https://';
export const DOMAIN_INVALID = 'A host name such as status.example.com';
export const DEPTH_INVALID = `A whole number from ${UPSTREAM_DEPTH.min} to ${UPSTREAM_DEPTH.max}`;
const tooLong = (max: number) => `At most ${max} characters`;

/** What is wrong with the draft before it is sent (the server checks again). */
export function draftErrors(
  draft: StatusPageDraft,
  { handle, creating, hasPassword }: { handle: string; creating: boolean; hasPassword: boolean },
): Record<Field, string | null> {
  const { shape } = statusPageCreate;
  const domain = draft.custom_domain.trim().toLowerCase();
  return {
    title: draft.title.trim() === '' ? messages.required : draft.title.trim().length > 200 ? tooLong(200) : null,
    handle: editorHandleError(handle, { creating }),
    description: draft.description.trim().length > 2000 ? tooLong(2000) : null,
    logo_url: draft.logo_url.trim() && !shape.logo_url.safeParse(draft.logo_url.trim()).success ? URL_INVALID : null,
    password:
      draft.access !== 'password'
        ? null
        : draft.password === ''
          ? hasPassword
            ? null
            : PASSWORD_REQUIRED
          : draft.password.length < 8
            ? PASSWORD_SHORT
            : draft.password.length > 200
              ? tooLong(200)
              : null,
    custom_domain: domain && !shape.custom_domain.safeParse(domain).success ? DOMAIN_INVALID : null,
    upstream_depth: !draft.show_upstream || isDepth(draft.upstream_depth) ? null : DEPTH_INVALID,
  };
}

// ---- the server's refusal, placed by the field, group or service it names ----

export interface PlacedErrors {
  fields: Partial<Record<string, string>>;
  /** By group key: the group as a whole, and its name. */
  groups: Partial<Record<string, string>>;
  groupNames: Partial<Record<string, string>>;
  /** By service key. */
  services: Partial<Record<string, string>>;
  /** For the whole form: the message, and errors of fields the form does not show. */
  form: string[];
}

const TOP_FIELDS = new Set([...Object.keys(FIELD_IDS), 'access', 'show_upstream', 'groups']);

/** Places a refused save's errors on the draft that was sent (by keys, so later moves keep them in place). */
export function placeErrors(error: unknown, sent: StatusPageDraft, creating: boolean): PlacedErrors {
  const refused = refusedSave(error, { creating });
  const placed: PlacedErrors = { fields: {}, groups: {}, groupNames: {}, services: {}, form: [] };
  for (const [path, message] of Object.entries(refused.fields)) {
    const [, groupIndex, part, serviceIndex] = /^groups\.(\d+)(?:\.(name|services)(?:\.(\d+))?)?$/.exec(path) ?? [];
    const group = groupIndex === undefined ? undefined : sent.groups[Number(groupIndex)];
    const service = serviceIndex === undefined ? undefined : group?.services[Number(serviceIndex)];
    if (service) placed.services[service.key] ??= message;
    else if (group && part === 'name') placed.groupNames[group.key] ??= message;
    else if (group) placed.groups[group.key] ??= message;
    else if (TOP_FIELDS.has(path)) placed.fields[path] ??= message;
    else placed.form.push(`${path}: ${message}`);
  }
  const placedSome =
    Object.keys(placed.fields).length +
      Object.keys(placed.groups).length +
      Object.keys(placed.groupNames).length +
      Object.keys(placed.services).length >
    0;
  if (placedSome) placed.form.unshift(FIX_FIELDS);
  else if (refused.message) placed.form.unshift(refused.message);
  return placed;
}

// ---- parts of the form ----

function AccessField({
  value,
  onChange,
  error,
}: {
  value: StatusPageAccess;
  onChange(access: StatusPageAccess): void;
  error?: string;
}) {
  return (
    <fieldset
      className="beacon-editor-fieldset flex flex-column gap-2"
      aria-describedby={error ? 'status-page-access-error' : undefined}
    >
      <legend className="mb-2">Who may read it</legend>
      {STATUS_PAGE_ACCESS.map((access) => (
        <div key={access} className="flex align-items-center gap-2">
          <RadioButton
            inputId={`status-page-access-${access}`}
            name="status-page-access"
            value={access}
            checked={value === access}
            onChange={() => onChange(access)}
          />
          <label htmlFor={`status-page-access-${access}`}>{ACCESS_LABELS[access]}</label>
        </div>
      ))}
      <FieldError id="status-page-access-error" error={error} />
    </fieldset>
  );
}

interface ServiceInfo {
  name: string | null;
  missing: boolean;
}

/** How a group is named in buttons and announcements: by its name, else its place. */
const groupTitle = (group: DraftGroup, index: number) =>
  group.name.trim() ? `group ${group.name.trim()}` : `group ${index + 1}`;

/**
 * The page's components: named groups, each an ordered list of the workspace's services. Every move, add and
 * remove is a labelled button; focus stays with the moved row and each change is announced.
 */
function ComponentsEditor({
  groups,
  onChange,
  info,
  onPicked,
  errors,
}: {
  groups: DraftGroup[];
  onChange(groups: DraftGroup[]): void;
  info(handle: string): ServiceInfo;
  onPicked(service: ProfileRef): void;
  errors: PlacedErrors | null;
}) {
  const api = useApi();
  const [addingTo, setAddingTo] = useState<string | null>(null);
  const [picked, setPicked] = useState<ProfileRef | string>('');
  const [announcement, setAnnouncement] = useState('');
  // The control to focus once the list has re-rendered (a moved row's button, a new group's name).
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    if (!focusNext.current) return;
    document.getElementById(focusNext.current)?.focus();
    focusNext.current = null;
  });

  const used = new Set(groups.flatMap((group) => group.services.map((service) => service.handle)));
  const serviceName = (handle: string) => info(handle).name ?? handle;
  const setGroup = (key: string, change: (group: DraftGroup) => DraftGroup) =>
    onChange(groups.map((group) => (group.key === key ? change(group) : group)));

  function moveGroup(index: number, by: number) {
    const group = groups[index]!;
    const to = index + by;
    onChange(moveItem(groups, index, by));
    const edge = to === 0 ? 'down' : to === groups.length - 1 ? 'up' : by < 0 ? 'up' : 'down';
    focusNext.current = `status-group-${group.key}-${edge}`;
    setAnnouncement(`Moved ${groupTitle(group, index)} to position ${to + 1} of ${groups.length}`);
  }

  function removeGroup(index: number) {
    const group = groups[index]!;
    onChange(groups.filter((other) => other.key !== group.key));
    const neighbour = groups[index + 1] ?? groups[index - 1];
    focusNext.current = neighbour ? `status-group-${neighbour.key}-name` : 'status-page-add-group';
    setAnnouncement(`Removed ${groupTitle(group, index)}`);
  }

  function addGroup() {
    const group = newGroup();
    onChange([...groups, group]);
    focusNext.current = `status-group-${group.key}-name`;
  }

  function moveService(group: DraftGroup, index: number, by: number) {
    const service = group.services[index]!;
    const to = index + by;
    const count = group.services.length;
    setGroup(group.key, (current) => ({ ...current, services: moveItem(current.services, index, by) }));
    const edge = to === 0 ? 'down' : to === count - 1 ? 'up' : by < 0 ? 'up' : 'down';
    focusNext.current = `status-service-${service.key}-${edge}`;
    setAnnouncement(`Moved ${serviceName(service.handle)} to position ${to + 1} of ${count}`);
  }

  function removeService(group: DraftGroup, index: number) {
    const service = group.services[index]!;
    setGroup(group.key, (current) => ({
      ...current,
      services: current.services.filter((other) => other.key !== service.key),
    }));
    const neighbour = group.services[index + 1] ?? group.services[index - 1];
    focusNext.current = neighbour ? `status-service-${neighbour.key}-remove` : `status-group-${group.key}-add`;
    setAnnouncement(`Removed ${serviceName(service.handle)}`);
  }

  const adding = groups.find((group) => group.key === addingTo) ?? null;
  const choice = chosenProfile(picked);
  function closePicker() {
    if (adding) focusNext.current = `status-group-${adding.key}-add`;
    setAddingTo(null);
    setPicked('');
  }
  function addPicked() {
    if (!adding || !choice || used.has(choice.handle)) return;
    onPicked(choice);
    setGroup(adding.key, (group) => ({ ...group, services: [...group.services, newService(choice.handle)] }));
    setAnnouncement(`Added ${choice.name} to ${groupTitle(adding, groups.indexOf(adding))}`);
    closePicker();
  }

  return (
    <>
      <p className="m-0 text-700">
        Visitors see each group with its services, in this order. A service can be on the page once.
      </p>
      {groups.length === 0 ? (
        <p className="m-0 text-600">No groups yet. Add a group, then the services it shows.</p>
      ) : (
        <ol className="list-none p-0 m-0 flex flex-column gap-3" aria-label="Groups">
          {groups.map((group, index) => {
            const title = groupTitle(group, index);
            const groupError = errors?.groups[group.key];
            return (
              <li key={group.key}>
                <fieldset
                  className="beacon-editor-group flex flex-column gap-3"
                  aria-describedby={groupError ? `status-group-${group.key}-error` : undefined}
                >
                  <legend className="font-semibold px-1">{`Group ${index + 1}`}</legend>
                  <div className="flex flex-wrap align-items-end gap-2">
                    <div className="flex-1 beacon-editor-grow">
                      <TextField
                        id={`status-group-${group.key}-name`}
                        label="Group name"
                        value={group.name}
                        autoComplete="off"
                        error={errors?.groupNames[group.key] ?? null}
                        onChange={(name) => setGroup(group.key, (current) => ({ ...current, name }))}
                      />
                    </div>
                    <div className="beacon-editor-actions">
                      <RowButton
                        id={`status-group-${group.key}-up`}
                        icon="pi-arrow-up"
                        label={`Move ${title} up`}
                        disabled={index === 0}
                        onClick={() => moveGroup(index, -1)}
                      />
                      <RowButton
                        id={`status-group-${group.key}-down`}
                        icon="pi-arrow-down"
                        label={`Move ${title} down`}
                        disabled={index === groups.length - 1}
                        onClick={() => moveGroup(index, 1)}
                      />
                      <RowButton
                        id={`status-group-${group.key}-remove`}
                        icon="pi-trash"
                        label={`Remove ${title}`}
                        danger
                        onClick={() => removeGroup(index)}
                      />
                    </div>
                  </div>
                  <FieldError id={`status-group-${group.key}-error`} error={groupError} />
                  {group.services.length === 0 ? (
                    <p className="m-0 text-600 text-sm">No services in this group yet.</p>
                  ) : (
                    <ol className="list-none p-0 m-0 flex flex-column" aria-label={`Services in ${title}`}>
                      {group.services.map((service, at) => {
                        const { name, missing } = info(service.handle);
                        const shown = name ?? service.handle;
                        const error = errors?.services[service.key];
                        return (
                          <li key={service.key} className="beacon-status-admin-service">
                            <div className="flex-1 min-w-0">
                              <div className="font-semibold beacon-status-admin-text">{shown}</div>
                              {name && (
                                <div className="text-600 text-sm beacon-status-admin-text">{service.handle}</div>
                              )}
                              {missing && <small className="p-error block">This service was not found</small>}
                              {error && <small className="p-error block">{error}</small>}
                            </div>
                            <div className="beacon-editor-actions">
                              <RowButton
                                id={`status-service-${service.key}-up`}
                                icon="pi-arrow-up"
                                label={`Move ${shown} up`}
                                disabled={at === 0}
                                onClick={() => moveService(group, at, -1)}
                              />
                              <RowButton
                                id={`status-service-${service.key}-down`}
                                icon="pi-arrow-down"
                                label={`Move ${shown} down`}
                                disabled={at === group.services.length - 1}
                                onClick={() => moveService(group, at, 1)}
                              />
                              <RowButton
                                id={`status-service-${service.key}-remove`}
                                icon="pi-times"
                                label={`Remove ${shown}`}
                                danger
                                onClick={() => removeService(group, at)}
                              />
                            </div>
                          </li>
                        );
                      })}
                    </ol>
                  )}
                  <div>
                    <Button
                      type="button"
                      id={`status-group-${group.key}-add`}
                      label="Add service"
                      icon="pi pi-plus"
                      outlined
                      size="small"
                      aria-label={`Add service to ${title}`}
                      disabled={group.services.length >= MAX_GROUP_SERVICES}
                      onClick={() => setAddingTo(group.key)}
                    />
                  </div>
                </fieldset>
              </li>
            );
          })}
        </ol>
      )}
      <FieldError id="status-page-groups-error" error={errors?.fields.groups} />
      <div>
        <Button
          type="button"
          id="status-page-add-group"
          label="Add group"
          icon="pi pi-plus"
          outlined
          disabled={groups.length >= MAX_GROUPS}
          onClick={addGroup}
        />
      </div>
      <p className="beacon-visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      {adding && (
        <PickerDialog
          header={`Add service to ${groupTitle(adding, groups.indexOf(adding))}`}
          onClose={closePicker}
          pending={false}
          disabled={!choice}
          onSubmit={addPicked}
          label="Service"
          inputId="status-page-add-service"
        >
          <ProfileSearch
            inputId="status-page-add-service"
            value={picked}
            onChange={setPicked}
            placeholder="Search services"
            search={async (q) =>
              (await api.call(autocompleteOperations.autocompleteServices, { query: { q } })).filter(
                (service) => !used.has(service.handle),
              )
            }
            autoFocus
          />
        </PickerDialog>
      )}
    </>
  );
}

/** The names of the page's services (picked ones at once, the others as their records load), and which are gone. */
function useServiceInfo(groups: readonly DraftGroup[]) {
  const api = useApi();
  const [pickedNames, setPickedNames] = useState<Record<string, string>>({});
  const handles = [...new Set(groups.flatMap((group) => group.services.map((service) => service.handle)))];
  const records = useQueries({ queries: handles.map((handle) => getServiceQueryOptions(api, handle)) });
  const byHandle = new Map(handles.map((handle, index) => [handle, records[index]!] as const));
  return {
    info(handle: string): ServiceInfo {
      const record = byHandle.get(handle);
      return {
        name: pickedNames[handle] ?? record?.data?.name ?? null,
        missing: record?.error instanceof ApiError && record.error.status === 404,
      };
    },
    remember: (service: ProfileRef) => setPickedNames((names) => ({ ...names, [service.handle]: service.name })),
  };
}

/**
 * A status page's form (docs/decisions.md#status-pages), new or saved: the page, who may read it, its components and
 * how far upstream it looks. The handle follows the title while new and is fixed once the page exists; the password is
 * write-only. Errors show by their fields once touched or after a submit; the server's by what they name.
 */
export function StatusPageForm({ page }: { page: StatusPage | null }) {
  const [draft, setDraft] = useState(() => draftOf(page));
  const editor = useEditorSave({
    saved: page,
    name: draft.title,
    create: (api, handle, sent: StatusPageDraft) => createStatusPage(api, { handle, ...bodyOf(sent) }),
    update: (api, handle, sent: StatusPageDraft) => updateStatusPage(api, handle, bodyOf(sent)),
    store: storeStatusPage,
    created: STATUS_PAGE_CREATED,
    updated: STATUS_PAGE_UPDATED,
    pathOf: statusPagePath,
    refusal: (error, sent) => placeErrors(error, sent, page === null),
  });
  const { creating, handle, refused, setRefused } = editor;
  const hasPassword = page?.has_password ?? false;
  const errors = draftErrors(draft, { handle, creating, hasPassword });
  const form = useShownErrors(errors);
  const services = useServiceInfo(draft.groups);

  /** Changes the draft; a field's own server error goes once the field changes. */
  function change(fields: Partial<StatusPageDraft>) {
    setDraft((current) => ({ ...current, ...fields }));
    if (refused) {
      const cleared = { ...refused.fields };
      for (const key of Object.keys(fields)) delete cleared[key];
      setRefused({ ...refused, fields: cleared });
    }
  }
  const error = (field: Field): string | null => form.shown(field) ?? refused?.fields[field] ?? null;

  function submit(event: FormEvent) {
    form.attempt();
    editor.submit(event, draft, { valid: form.valid, firstError: () => firstErrorId(FIELD_IDS, errors) });
  }

  return (
    <EditorFrame
      label="Status page"
      onSubmit={submit}
      submitLabel={creating ? 'Create status page' : 'Save'}
      pending={editor.pending}
      errors={refused?.form}
    >
      <FormCard title="Page" id="status-page-general">
        <EditorNameFields
          editor={editor}
          form={form}
          nameKey="title"
          ids={{ name: FIELD_IDS.title, handle: FIELD_IDS.handle, description: FIELD_IDS.description }}
          nameLabel="Title"
          name={draft.title}
          onName={(title) => change({ title })}
          noun="page"
          address={(value) => `/status/${value}`}
          description={draft.description}
          onDescription={(description) => change({ description })}
          descriptionRows={3}
          descriptionHint="Shown under the title; optional."
        />
        <TextField
          id={FIELD_IDS.logo_url}
          label="Logo URL"
          type="url"
          value={draft.logo_url}
          autoComplete="off"
          onChange={(logo_url) => change({ logo_url })}
          onBlur={() => form.touch('logo_url')}
          hint="Optional: an image shown beside the title, such as https://example.com/logo.svg."
          error={error('logo_url')}
        />
      </FormCard>

      <FormCard title="Access" id="status-page-access">
        <AccessField
          value={draft.access}
          onChange={(access) => change({ access })}
          {...(refused?.fields.access ? { error: refused.fields.access } : {})}
        />
        {draft.access === 'password' && (
          <TextField
            id={FIELD_IDS.password}
            label="Password"
            type="password"
            value={draft.password}
            autoComplete="new-password"
            onChange={(password) => change({ password })}
            onBlur={() => form.touch('password')}
            hint={
              hasPassword
                ? 'A password is set. Leave this empty to keep it, or type a new one to replace it.'
                : 'Visitors type it to read the page; at least 8 characters.'
            }
            error={error('password')}
          />
        )}
        <TextField
          id={FIELD_IDS.custom_domain}
          label="Custom domain"
          value={draft.custom_domain}
          autoComplete="off"
          onChange={(custom_domain) => change({ custom_domain })}
          onBlur={() => form.touch('custom_domain')}
          hint="Optional: a host name such as status.example.com, pointed at Beacon, that serves the page at its root once a DNS record proves it is yours (shown after saving)."
          error={error('custom_domain')}
        />
      </FormCard>

      <FormCard title="Components" id="status-page-components">
        <ComponentsEditor
          groups={draft.groups}
          onChange={(groups) => {
            setDraft((current) => ({ ...current, groups }));
            // Group and service errors were about what was sent; once the groups change they may no longer hold.
            if (refused)
              setRefused({
                ...refused,
                groups: {},
                groupNames: {},
                services: {},
                fields: { ...refused.fields, groups: undefined },
              });
          }}
          info={services.info}
          onPicked={services.remember}
          errors={refused}
        />
      </FormCard>

      <FormCard title="Problems upstream" id="status-page-upstream">
        <div className="flex flex-column gap-1">
          <div className="flex align-items-center gap-2">
            <Checkbox
              inputId="status-page-show-upstream"
              checked={draft.show_upstream}
              onChange={(event) => change({ show_upstream: Boolean(event.checked) })}
              aria-describedby="status-page-show-upstream-hint"
            />
            <label htmlFor="status-page-show-upstream">Show problems upstream</label>
          </div>
          <small id="status-page-show-upstream-hint" className="text-600">
            A component also says when a service it depends on has a problem; its own bars and uptime do not change.
          </small>
          <FieldError id="status-page-show-upstream-error" error={refused?.fields.show_upstream} />
        </div>
        <div className="beacon-status-admin-depth">
          <TextField
            id={FIELD_IDS.upstream_depth}
            label="Upstream depth"
            type="number"
            min={UPSTREAM_DEPTH.min}
            max={UPSTREAM_DEPTH.max}
            value={draft.upstream_depth}
            disabled={!draft.show_upstream}
            onChange={(upstream_depth) => change({ upstream_depth })}
            onBlur={() => form.touch('upstream_depth')}
            hint={`How many steps of dependencies to look through (${UPSTREAM_DEPTH.min}-${UPSTREAM_DEPTH.max}, ${UPSTREAM_DEPTH.default} unless you change it).`}
            error={error('upstream_depth')}
          />
        </div>
      </FormCard>
    </EditorFrame>
  );
}
