/**
 * Page export (docs/decisions.md#pages): a zip streamed as it is built (fflate), with each published page at
 * `{service}/{section}/{handle}.md` (`.yml` for specs), each draft at `{service}/{section}/drafts/{handle}.md`,
 * and `manifest.json` listing them.
 */
import { PassThrough, type Readable } from 'node:stream';
import { strToU8, Zip, ZipDeflate } from 'fflate';
import { isAdminRole } from '../../../domain/roles.js';
import { pageFileExtension } from '../../../domain/pages.js';
import type { ServerContext } from '../../context.js';
import { listPagesOfServices } from '../../db/repositories/pages.js';
import { forbidden } from '../../errors.js';
import type { Caller } from '../accounts/auth.js';
import { editableService } from '../catalogue/services.js';

interface ManifestEntry {
  service: string;
  section: string;
  handle: string;
  title: string;
  published_at: string | null;
  updated_at: string;
  updated_by: string;
  revisions: number;
  /** The published text's file, when published. */
  file: string | null;
  draft_file: string;
}

/** A path segment that cannot climb out of its folder or name another. */
function segment(value: string): string {
  return value.replace(/[\\/]/g, '-').replace(/^\.+/, '_') || '_';
}

function addFile(zip: Zip, name: string, text: string, mtime: Date): void {
  const file = new ZipDeflate(name, { level: 6 });
  // fflate reads the time from the property, not the constructor's option.
  file.mtime = mtime;
  zip.add(file);
  file.push(strToU8(text), true);
}

async function zipOf(ctx: ServerContext, workspaceId: string, serviceId?: string): Promise<Readable> {
  const pages = await listPagesOfServices(ctx.database.db, workspaceId, serviceId);
  const out = new PassThrough();
  const zip = new Zip((error, chunk, final) => {
    if (error) return void out.destroy(error);
    out.write(chunk);
    if (final) out.end();
  });
  const manifest: ManifestEntry[] = [];
  for (const page of pages) {
    const folder = `${segment(page.service_handle)}/${page.section}`;
    const name = `${segment(page.handle)}.${pageFileExtension(page.section)}`;
    const draftFile = `${folder}/drafts/${name}`;
    addFile(zip, draftFile, page.content, new Date(page.updated_at));
    let file: string | null = null;
    if (page.published_at !== null) {
      file = `${folder}/${name}`;
      addFile(zip, file, page.published_content ?? '', new Date(page.published_at));
    }
    manifest.push({
      service: page.service_handle,
      section: page.section,
      handle: page.handle,
      title: page.title,
      published_at: page.published_at,
      updated_at: page.updated_at,
      updated_by: page.updated_by,
      revisions: page.revisions,
      file,
      draft_file: draftFile,
    });
  }
  addFile(
    zip,
    'manifest.json',
    `${JSON.stringify({ exported_at: ctx.now().toISOString(), pages: manifest }, null, 2)}\n`,
    ctx.now(),
  );
  zip.end();
  return out;
}

/** The service's pages (its editors). */
export async function exportServicePages(ctx: ServerContext, caller: Caller, service: string) {
  const { row } = await editableService(ctx, caller, service);
  return { filename: `${row.handle}-pages.zip`, stream: await zipOf(ctx, caller.workspace.id, row.id) };
}

/** Every service's pages (workspace admins and owners). */
export async function exportWorkspacePages(ctx: ServerContext, caller: Caller) {
  if (!isAdminRole(caller.user.role)) throw forbidden('Only workspace admins and owners can export every page');
  return { filename: `${caller.workspace.domain}-pages.zip`, stream: await zipOf(ctx, caller.workspace.id) };
}
