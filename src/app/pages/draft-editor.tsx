import { useQuery, useQueryClient } from '@tanstack/react-query';
import { liveQuery } from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { InputText } from 'primereact/inputtext';
import { useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import type { Service } from '../../contract/catalogue.js';
import type { DraftPage } from '../../contract/pages.js';
import type { LocalDb, OutboxEntry } from '../../local/db.js';
import { ApiError } from '../api/client.js';
import { keys } from '../api/query-keys.js';
import { useApi } from '../session/use-api.js';
import { loadStateOf, NotAvailableOffline } from '../components/load-state.js';
import { NotFound, Spinner } from '../components/status-screens.js';
import { useOnline } from '../components/use-online.js';
import { useLocal, useWrite } from '../local/local-provider.js';
import { conflictsOf, settleConflict, WriteKinds, type Conflict } from '../local/writes.js';
import { servicePath } from '../routing/paths.js';
import { useSnackbar } from '../components/snackbars.js';
import { CodeEditor } from './code-editor.js';
import { canSave, canUnpublish, publishPlan, type DraftFields } from './draft-rules.js';
import { draftSaveWrite } from './draft-writes.js';
import type { PageKind } from './page-kinds.js';
import { createDraft, draftAction, getDraftQueryOptions, refreshPages } from './pages-api.js';

export const HANDLE_TAKEN = 'The handle has already been taken.';
const DRAFT_KINDS = new WriteKinds([draftSaveWrite]);

type SaveInput = { params: { service: string; section: string; handle: string }; body: DraftFields };

function isSaveOf(entry: Pick<OutboxEntry, 'kind' | 'input'>, service: string, section: string, handle: string) {
  const { params } = entry.input as SaveInput;
  return (
    entry.kind === draftSaveWrite.kind &&
    params.service === service &&
    params.section === section &&
    params.handle === handle
  );
}

/** Resolves once this draft's queued saves left the outbox: sent ('done') or refused ('failed'). */
function savesSettled(db: LocalDb, matches: (entry: OutboxEntry) => boolean): Promise<'done' | 'failed'> {
  return new Promise((resolve) => {
    const subscription = liveQuery(() => db.outbox.toArray()).subscribe({
      next: (entries) => {
        const mine = entries.filter(matches);
        if (mine.some((entry) => entry.status === 'pending')) return;
        subscription.unsubscribe();
        resolve(mine.some((entry) => entry.status === 'failed') ? 'failed' : 'done');
      },
      error: () => resolve('failed'),
    });
  });
}

/** A 412 on replay: both texts, and the user's choice (docs/decisions.md#offline and #pages). */
function ConflictPanel({ conflict, onSettle }: { conflict: Conflict; onSettle(choice: 'mine' | 'theirs'): void }) {
  const mine = (conflict.mine as SaveInput).body;
  const theirs = conflict.theirs as Partial<DraftPage> | undefined;
  return (
    <section
      role="alert"
      aria-label="Conflicting edit"
      className="p-3 border-round border-1 border-orange-300 bg-orange-50 flex flex-column gap-3"
    >
      <h2 className="text-lg font-semibold m-0">Someone else saved this draft meanwhile</h2>
      <div className="grid">
        <div className="col-12 md:col-6">
          <h3 className="text-base font-semibold m-0 mb-1">Your text</h3>
          <pre className="beacon-conflict-text m-0" aria-label="Your text">
            {mine.title}
            {'\n\n'}
            {mine.content}
          </pre>
        </div>
        <div className="col-12 md:col-6">
          <h3 className="text-base font-semibold m-0 mb-1">Their text</h3>
          <pre className="beacon-conflict-text m-0" aria-label="Their text">
            {theirs?.title ?? ''}
            {'\n\n'}
            {theirs?.content ?? ''}
          </pre>
        </div>
      </div>
      <div className="flex gap-2 flex-wrap">
        <Button type="button" label="Keep Mine" icon="pi pi-check" onClick={() => onSettle('mine')} />
        <Button type="button" label="Take Theirs" icon="pi pi-replay" outlined onClick={() => onSettle('theirs')} />
      </div>
    </section>
  );
}

/** Why the server refused to publish (422): its message and the problems it named in the content. */
export interface PublishRefusal {
  message: string;
  problems: string[];
}

/** A 422 answer to a publish (an OpenAPI spec that does not parse or validate): what to show; null otherwise. */
export function publishRefusalOf(error: unknown): PublishRefusal | null {
  if (!(error instanceof ApiError) || error.status !== 422) return null;
  return { message: error.body.message, problems: error.body.errors?.['content'] ?? [] };
}

/** The server's reasons, kept on the form until the next publish: a snackbar alone would be gone too soon. */
function RefusalPanel({ refusal }: { refusal: PublishRefusal }) {
  // The message names the first problem already: the list is for when there are more.
  const listed = refusal.problems.length > 1 ? refusal.problems : [];
  return (
    <section
      role="alert"
      aria-label="Publish refused"
      className="p-3 border-round border-1 border-red-300 bg-red-50 text-red-900 flex flex-column gap-2"
    >
      <h2 className="text-lg font-semibold m-0">Not published</h2>
      <p className="m-0" style={{ overflowWrap: 'anywhere' }}>
        {refusal.message}
      </p>
      {listed.length > 0 && (
        <ul className="m-0 pl-4 text-sm" aria-label="Problems">
          {listed.map((problem, index) => (
            <li key={index} style={{ overflowWrap: 'anywhere' }}>
              {problem}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The draft editor at /services/{handle}/draft-{section}/new and /{draftId} (spec 2.1 and 4): title, handle
 * (new drafts only) and content in a code editor. Saves of an existing draft go through the outbox (offline too).
 */
export function DraftEditor({ service, kind }: { service: Service; kind: PageKind }) {
  const draftId = useParams()['draftId'] ?? 'new';
  const api = useApi();
  const isNew = draftId === 'new';
  const query = useQuery({ ...getDraftQueryOptions(api, service.handle, kind.section, draftId), enabled: !isNew });
  const state = isNew ? 'ready' : loadStateOf(query);
  if (state === 'pending') return <Spinner label="Loading draft" />;
  if (state === 'offline') return <NotAvailableOffline />;
  if (!isNew && !query.data) return <NotFound />;
  // A fresh form per draft; later answers (a new lock) keep what the user typed.
  return <DraftForm key={draftId} service={service} kind={kind} draftId={draftId} draft={query.data ?? null} />;
}

function DraftForm({
  service,
  kind,
  draftId,
  draft,
}: {
  service: Service;
  kind: PageKind;
  draftId: string;
  draft: DraftPage | null;
}) {
  const api = useApi();
  const local = useLocal();
  const write = useWrite();
  const online = useOnline();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const [fields, setFields] = useState<DraftFields>({ title: draft?.title ?? '', content: draft?.content ?? '' });
  const [handle, setHandle] = useState('');
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<PublishRefusal | null>(null);
  const stored = draft ? { title: draft.title, content: draft.content } : null;
  const matches = (entry: OutboxEntry) => isSaveOf(entry, service.handle, kind.section, draftId);
  const entries = useLiveQuery(() => local?.db.outbox.toArray() ?? [], [local]);
  const conflict = useMemo(
    () =>
      conflictsOf(entries ?? [], DRAFT_KINDS).find((candidate) =>
        isSaveOf({ kind: candidate.kind, input: candidate.mine }, service.handle, kind.section, draftId),
      ),
    [entries, service.handle, kind.section, draftId],
  );
  const pendingSaves = (entries ?? []).filter((entry) => entry.status === 'pending' && matches(entry)).length;
  const pendingSave = pendingSaves > 0;
  const base = `${servicePath(service.handle)}/${kind.draftsPath}`;

  // A 422 says why in its message: a taken handle on create, an invalid OpenAPI spec on publish.
  const failed = (error: unknown) => {
    if (error instanceof ApiError && error.status === 422) enqueue(error.body.message || HANDLE_TAKEN, 'error');
    else enqueue(error instanceof Error ? error.message : 'Something went wrong', 'error');
  };

  /** Saves; resolves whether the save reached the server (for publish after save). */
  async function save(): Promise<boolean> {
    if (!draft) {
      const body = {
        section: kind.section,
        title: fields.title.trim(),
        content: fields.content,
        ...(handle.trim() ? { handle: handle.trim() } : {}),
      };
      const created = await createDraft(api, service.handle, body);
      queryClient.setQueryData(keys.draft(service.handle, kind.section, created.id), created);
      enqueue('Created Draft');
      await refreshPages(queryClient, service.handle);
      navigate(`${base}/${encodeURIComponent(created.id)}`, { replace: true });
      return false;
    }
    await write(
      draftSaveWrite,
      {
        params: { service: service.handle, section: kind.section, handle: draftId },
        // Saves queued before this one each take the next lock when they replay in order.
        body: { title: fields.title.trim(), content: fields.content, lock: draft.lock + pendingSaves },
      },
      { label: `Save ${fields.title.trim()}` },
    );
    enqueue('Updated Draft');
    return local ? (await savesSettled(local.db, matches)) === 'done' : true;
  }

  async function run(action: () => Promise<void>) {
    setBusy(true);
    try {
      await action();
    } catch (error) {
      failed(error);
    } finally {
      setBusy(false);
    }
  }

  async function publishOrUnpublish(which: 'publishDraftPage' | 'unpublishDraftPage') {
    const updated = await draftAction(api, which, service.handle, kind.section, draftId);
    queryClient.setQueryData(keys.draft(service.handle, kind.section, draftId), updated);
    enqueue(which === 'publishDraftPage' ? 'Published Draft' : 'Unpublished Draft');
    await refreshPages(queryClient, service.handle);
  }

  async function publish() {
    setRefusal(null);
    const plan = publishPlan(fields, stored);
    if (plan === 'save-then-publish' && !(await save())) return;
    // Publishes the text the server holds: wait for the saved draft to be read back.
    await queryClient.invalidateQueries({ queryKey: keys.draft(service.handle, kind.section, draftId) });
    try {
      await publishOrUnpublish('publishDraftPage');
    } catch (error) {
      setRefusal(publishRefusalOf(error));
      throw error;
    }
  }

  async function settle(choice: 'mine' | 'theirs') {
    if (!local || !conflict) return;
    await settleConflict(local.db, DRAFT_KINDS, conflict, choice);
    if (choice === 'theirs') {
      const theirs = conflict.theirs as DraftPage;
      setFields({ title: theirs.title, content: theirs.content });
    }
    await queryClient.invalidateQueries({ queryKey: keys.draft(service.handle, kind.section, draftId) });
  }

  const plan = publishPlan(fields, stored);
  // A conflict is settled first (keep mine or take theirs), never overwritten by another save.
  const saveable = canSave(fields, stored) && !busy && !conflict;
  const publishable = plan !== 'none' && !busy && online && !pendingSave && !conflict;

  return (
    <Card>
      <form
        className="flex flex-column gap-3"
        aria-label={`Draft ${kind.one}`}
        onSubmit={(event) => {
          event.preventDefault();
          if (saveable) void run(async () => void (await save()));
        }}
      >
        <div className="flex align-items-center justify-content-between gap-2 flex-wrap">
          <h1 className="text-2xl font-semibold m-0">{draft ? `Edit ${kind.one}` : `New ${kind.one}`}</h1>
          {draft && (
            <span className="text-600 text-sm">
              {draft.published_at ? 'Published' : 'Draft'} · {draft.revisions}{' '}
              {draft.revisions === 1 ? 'revision' : 'revisions'}
            </span>
          )}
        </div>
        {conflict && <ConflictPanel conflict={conflict} onSettle={(choice) => void run(() => settle(choice))} />}
        <div className="grid">
          <div className="col-12 md:col-8 flex flex-column gap-1">
            <label htmlFor="draft-title" className="font-semibold">
              {kind.titleLabel}
            </label>
            <InputText
              id="draft-title"
              value={fields.title}
              placeholder={kind.titlePlaceholder}
              onChange={(event) => setFields((current) => ({ ...current, title: event.target.value }))}
            />
          </div>
          <div className="col-12 md:col-4 flex flex-column gap-1">
            <label htmlFor="draft-handle" className="font-semibold">
              Handle
            </label>
            <InputText
              id="draft-handle"
              value={draft ? draft.handle : handle}
              placeholder={kind.handlePlaceholder}
              disabled={Boolean(draft)}
              onChange={(event) => setHandle(event.target.value)}
            />
          </div>
        </div>
        <div className="flex flex-column gap-1">
          <label htmlFor="draft-content" className="font-semibold">
            Content
          </label>
          <CodeEditor
            id="draft-content"
            label="Content"
            language={kind.format}
            value={fields.content}
            placeholder={kind.format === 'yaml' ? 'openapi: 3.1.0' : '# Markdown'}
            onChange={(content) => setFields((current) => ({ ...current, content }))}
          />
        </div>
        {refusal && <RefusalPanel refusal={refusal} />}
        {pendingSave && (
          <p className="m-0 text-600 text-sm" role="status">
            <i className="pi pi-cloud-upload mr-2" aria-hidden="true" />
            {online ? 'Saving…' : 'Saved on this device; it will be sent when you are back online.'}
          </p>
        )}
        <div className="flex gap-2 flex-wrap">
          <Button type="submit" label="Save" icon="pi pi-save" disabled={!saveable} />
          <Button
            type="button"
            label="Publish"
            icon="pi pi-send"
            outlined
            disabled={!publishable}
            onClick={() => void run(publish)}
          />
          <Button
            type="button"
            label="Unpublish"
            icon="pi pi-eye-slash"
            outlined
            disabled={!canUnpublish(draft) || busy || !online}
            onClick={() => void run(() => publishOrUnpublish('unpublishDraftPage'))}
          />
          <Button
            type="button"
            label="Reset"
            icon="pi pi-times"
            text
            disabled={busy}
            onClick={() => setFields({ title: '', content: '' })}
          />
        </div>
      </form>
    </Card>
  );
}
