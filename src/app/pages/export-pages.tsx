import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { useState } from 'react';
import type { Service } from '../../contract/catalogue.js';
import { pageOperations } from '../../contract/operations/pages.js';
import type { Operation } from '../../contract/operation.js';
import type { ApiClient } from '../api/client.js';
import { useApi } from '../session/use-api.js';
import { useSnackbar } from '../components/snackbars.js';

export const POPUP_BLOCKED = 'Please disable your Pop-up blocker and try again.';

/**
 * Downloads a zip export. The answer needs the bearer token, so it is fetched with the API client and handed to
 * a window opened at once (while the click still counts as the user's: a blocker refuses later windows) through
 * an object URL. Resolves false when the window was blocked.
 */
export async function downloadExport(
  api: ApiClient,
  operation: Operation,
  params: Record<string, string>,
  fileName: string,
): Promise<boolean> {
  const target = window.open('', '_blank');
  if (!target) return false;
  try {
    const response = await api.stream(operation, { params } as never, {
      headers: { accept: 'application/zip' },
    });
    const url = URL.createObjectURL(await response.blob());
    const link = target.document.createElement('a');
    link.href = url;
    link.download = fileName;
    target.document.body.append(link);
    link.click();
    // The download has started; the window is not needed for it.
    setTimeout(() => {
      URL.revokeObjectURL(url);
      target.close();
    }, 1000);
    return true;
  } catch (error) {
    target.close();
    throw error;
  }
}

function ExportCard({
  title,
  text,
  label,
  start,
}: {
  title: string;
  text: string;
  label: string;
  start(): Promise<boolean>;
}) {
  const { enqueue } = useSnackbar();
  const [busy, setBusy] = useState(false);
  const click = async () => {
    setBusy(true);
    try {
      if (!(await start())) enqueue(POPUP_BLOCKED, 'error');
    } catch (error) {
      enqueue(error instanceof Error ? error.message : 'The export failed', 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card className="h-full" title={<h2 className="text-xl font-semibold m-0">{title}</h2>}>
      <div className="flex flex-column gap-3">
        <p className="m-0 text-700">{text}</p>
        <div>
          <Button type="button" label={label} icon="pi pi-download" loading={busy} onClick={() => void click()} />
        </div>
      </div>
    </Card>
  );
}

/** Settings: 'Export Service Pages' (spec 2.1), the service's published pages and drafts as one zip. */
export function ExportServicePagesCard({ service }: { service: Service }) {
  const api = useApi();
  return (
    <ExportCard
      title="Export Service Pages"
      text="Download this service's published pages and drafts as one zip file."
      label="Export Pages"
      start={() =>
        downloadExport(
          api,
          pageOperations.exportServicePages,
          { service: service.handle },
          `${service.handle}-pages.zip`,
        )
      }
    />
  );
}

/** Admin: 'Export Workspace Pages' (spec/platform.md), every service's pages as one zip. */
export function ExportWorkspacePagesCard() {
  const api = useApi();
  return (
    <ExportCard
      title="Export Workspace Pages"
      text="Download the published pages and drafts of every service as one zip file."
      label="Export Pages"
      start={() => downloadExport(api, pageOperations.exportWorkspacePages, {}, 'workspace-pages.zip')}
    />
  );
}
