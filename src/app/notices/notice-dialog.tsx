import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Dialog } from 'primereact/dialog';
import { DialogFooter } from '../components/dialog-footer.js';
import { InputTextarea } from 'primereact/inputtextarea';
import { useState, type FormEvent } from 'react';
import type { Service } from '../../contract/catalogue.js';
import type { Notice } from '../../contract/notices.js';
import { HEALTHS, healthLabel, type Health } from '../../domain/catalogue.js';
import {
  defaultStatus,
  NOTICE_TYPES,
  noticeHealthError,
  statusAfterTypeChange,
  statusesFor,
  type NoticeStatus,
  type NoticeType,
} from '../../domain/notices.js';
import { isRequired, messages } from '../../domain/validators.js';
import { useAuth } from '../session/auth-context.js';
import { TextField, useShownErrors } from '../components/form.js';
import { LabelledSelect } from '../components/labelled-select.js';
import { useSnackbar } from '../components/snackbars.js';
import { noticeStatusLabel, noticeTypeLabel } from './notice-format.js';
import { createNotice, refreshAfterNoticeWrite, updateNotice } from './notices-api.js';

interface Draft {
  type: NoticeType;
  title: string;
  status: NoticeStatus;
  health: Health;
  message: string;
}

type Field = 'title' | 'message' | 'health';

/** Spec section 5: every field is required, and health must be good once the status is resolved or completed. */
export function noticeDraftErrors(draft: Draft): Record<Field, string | null> {
  return {
    title: isRequired(draft.title) ? null : messages.required,
    message: isRequired(draft.message) ? null : messages.required,
    health: noticeHealthError(draft.status, draft.health),
  };
}

function firstDraft(service: Pick<Service, 'health'>, notice: Notice | undefined): Draft {
  const type = notice?.type ?? NOTICE_TYPES[0];
  return {
    type,
    title: notice?.title ?? '',
    status: notice?.status ?? defaultStatus(type),
    // The service's health as it is now: saving without touching it leaves it unchanged.
    health: service.health,
    message: '',
  };
}

/**
 * The notice modal, mounted while open: with `notice` it updates that notice (type and title are fixed, spec 4),
 * without it adds one. Saving closes it, toasts, and refreshes the notice lists and the service.
 */
export function NoticeDialog({
  service,
  notice,
  onClose,
}: {
  service: Pick<Service, 'handle' | 'health'>;
  notice?: Notice;
  onClose(): void;
}) {
  const { api } = useAuth();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const [draft, setDraft] = useState<Draft>(() => firstDraft(service, notice));
  const errors = noticeDraftErrors(draft);
  const { shown, touch, valid } = useShownErrors(errors);
  const editing = notice !== undefined;
  const idPrefix = editing ? 'notice-update' : 'notice-add';

  const save = useMutation({
    mutationFn: (value: Draft) => {
      const common = { status: value.status, message: value.message.trim(), health: value.health };
      return notice
        ? updateNotice(api, notice.id, common)
        : createNotice(api, service.handle, { type: value.type, title: value.title.trim(), ...common });
    },
    onSuccess: () => {
      enqueue(editing ? 'Service Notice Updated' : 'Service Notice Created');
      void refreshAfterNoticeWrite(queryClient, service.handle);
      onClose();
    },
    // Spec: other failures only set an error flag; the modal stays open for another try.
  });

  const set = (change: Partial<Draft>) => setDraft((current) => ({ ...current, ...change }));
  const changeType = (type: NoticeType) =>
    setDraft((current) => ({ ...current, type, status: statusAfterTypeChange(type, current.status) }));

  function submit(event?: FormEvent) {
    event?.preventDefault();
    touch('title', 'message');
    if (valid && !save.isPending) save.mutate(draft);
  }

  const formId = `${idPrefix}-form`;
  const messageError = shown('message');
  const healthErrorId = `${idPrefix}-health-error`;
  return (
    <Dialog
      header={editing ? 'Update Notice' : 'Add Notice'}
      visible
      onHide={onClose}
      style={{ width: '34rem', maxWidth: '95vw' }}
      footer={
        <DialogFooter
          onCancel={onClose}
          pending={save.isPending}
          submitLabel="Save"
          disabled={!valid}
          formId={formId}
        />
      }
    >
      <form id={formId} className="flex flex-column gap-3" onSubmit={submit} noValidate>
        {notice ? (
          <dl className="grid m-0">
            <div className="col-12 sm:col-4">
              <dt className="text-600 text-sm">Type</dt>
              <dd className="m-0 mt-1">{noticeTypeLabel(notice.type)}</dd>
            </div>
            <div className="col-12 sm:col-8">
              <dt className="text-600 text-sm">Title</dt>
              <dd className="m-0 mt-1 font-semibold">{notice.title}</dd>
            </div>
          </dl>
        ) : (
          <>
            <div className="flex flex-column gap-1">
              <LabelledSelect<NoticeType>
                id={`${idPrefix}-type`}
                label="Type"
                value={draft.type}
                options={NOTICE_TYPES.map((value) => ({ label: noticeTypeLabel(value), value }))}
                onChange={changeType}
                className="w-full"
              />
            </div>
            <TextField
              id={`${idPrefix}-title`}
              label="Title"
              value={draft.title}
              onChange={(title) => set({ title })}
              onBlur={() => touch('title')}
              error={shown('title')}
            />
          </>
        )}
        <div className="flex flex-column gap-1">
          <LabelledSelect<NoticeStatus>
            id={`${idPrefix}-status`}
            label="Status"
            value={draft.status}
            options={statusesFor(draft.type).map((value) => ({ label: noticeStatusLabel(value), value }))}
            onChange={(status) => set({ status })}
            className="w-full"
          />
        </div>
        <div className="flex flex-column gap-1">
          <LabelledSelect<Health>
            id={`${idPrefix}-health`}
            label="Service Health"
            value={draft.health}
            options={HEALTHS.map((value) => ({ label: healthLabel(value), value }))}
            onChange={(health) => set({ health })}
            className={errors.health ? 'w-full p-invalid' : 'w-full'}
          />
          {errors.health && (
            <small id={healthErrorId} className="p-error" role="alert">
              {errors.health}
            </small>
          )}
        </div>
        <div className="flex flex-column gap-1">
          <label htmlFor={`${idPrefix}-message`} className="font-semibold">
            Message
          </label>
          <InputTextarea
            id={`${idPrefix}-message`}
            value={draft.message}
            rows={4}
            onChange={(event) => set({ message: event.target.value })}
            onBlur={() => touch('message')}
            className={messageError ? 'w-full p-invalid' : 'w-full'}
            aria-invalid={messageError ? true : undefined}
            aria-describedby={messageError ? `${idPrefix}-message-error` : undefined}
          />
          {messageError && (
            <small id={`${idPrefix}-message-error`} className="p-error">
              {messageError}
            </small>
          )}
        </div>
      </form>
    </Dialog>
  );
}
