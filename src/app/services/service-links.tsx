import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { useState, type FormEvent } from 'react';
import { link as linkSchema, type Service } from '../../contract/catalogue.js';
import { TextField } from '../components/form.js';

type Link = Service['links'][number];

/** Catalogue users expect them: a service's runbook, dashboard, repository, ... as links on its overview. */
export function ServiceLinksCard({ service }: { service: Pick<Service, 'links'> }) {
  if (service.links.length === 0) return null;
  return (
    <Card title={<h2 className="text-xl font-semibold m-0">Links</h2>}>
      <ul className="list-none p-0 m-0 flex flex-column gap-2" aria-label="Links">
        {service.links.map((entry) => (
          <li key={`${entry.name}|${entry.url}`} className="flex align-items-center gap-2">
            <i className="pi pi-external-link text-600" aria-hidden="true" />
            <a href={entry.url} target="_blank" rel="noopener noreferrer">
              {entry.name}
            </a>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** The field errors of one link, from the contract's own rule (a name, and an http or https URL). */
function linkErrors(entry: Link): { name: string | null; url: string | null } {
  const result = linkSchema.safeParse(entry);
  if (result.success) return { name: null, url: null };
  const first = (field: 'name' | 'url') => result.error.issues.find((issue) => issue.path[0] === field);
  return {
    name: first('name') ? 'Name is required' : null,
    url: first('url') ? 'Enter an http or https address' : null,
  };
}

/** Settings: add, edit and remove the service's links; Save sends them all (PATCH links). */
export function ServiceLinksSetting({
  service,
  onSave,
}: {
  service: Pick<Service, 'links'>;
  onSave: (links: Link[]) => Promise<unknown>;
}) {
  const [links, setLinks] = useState<Link[]>(service.links);
  const [pending, setPending] = useState(false);
  const errors = links.map(linkErrors);
  const valid = errors.every((error) => !error.name && !error.url);
  const changed = JSON.stringify(links) !== JSON.stringify(service.links);

  const edit = (index: number, change: Partial<Link>) =>
    setLinks((current) => current.map((entry, at) => (at === index ? { ...entry, ...change } : entry)));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!valid || !changed || pending) return;
    setPending(true);
    try {
      await onSave(links.map((entry) => ({ name: entry.name.trim(), url: entry.url.trim() })));
    } finally {
      setPending(false);
    }
  }

  return (
    <Card title={<h2 className="text-xl font-semibold m-0">Links</h2>}>
      <form onSubmit={submit} className="flex flex-column gap-3" noValidate aria-label="Links">
        {links.length === 0 && <p className="m-0 text-600">No links yet.</p>}
        {links.map((entry, index) => (
          <div key={index} className="grid align-items-end">
            <div className="col-12 md:col-4">
              <TextField
                id={`link-name-${index}`}
                label="Link name"
                value={entry.name}
                onChange={(name) => edit(index, { name })}
                error={entry.name || entry.url ? errors[index]!.name : null}
              />
            </div>
            <div className="col-12 md:col-6">
              <TextField
                id={`link-url-${index}`}
                label="URL"
                type="url"
                value={entry.url}
                onChange={(url) => edit(index, { url })}
                error={entry.url ? errors[index]!.url : null}
              />
            </div>
            <div className="col-12 md:col-2">
              <Button
                type="button"
                icon="pi pi-trash"
                text
                severity="danger"
                aria-label={`Remove link ${entry.name || index + 1}`}
                onClick={() => setLinks((current) => current.filter((_, at) => at !== index))}
              />
            </div>
          </div>
        ))}
        <div className="flex gap-2">
          <Button
            type="button"
            label="Add Link"
            icon="pi pi-plus"
            outlined
            onClick={() => setLinks((current) => [...current, { name: '', url: '' }])}
          />
          {changed && <Button type="submit" label="Save Links" disabled={!valid} loading={pending} />}
        </div>
      </form>
    </Card>
  );
}
