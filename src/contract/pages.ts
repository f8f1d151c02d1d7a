import { z } from 'zod';
import { line, text } from './common.js';

/** Page sections (DESIGN.md section 10). */
export const PAGE_SECTIONS = ['announcements', 'release-notes', 'api-docs', 'open-api-specs'] as const;
export const pageSection = z.enum(PAGE_SECTIONS);
export type PageSection = z.infer<typeof pageSection>;

/** A draft (spec/catalogue.md section 3; DESIGN.md 10): `lock` is its version, `revisions` its saves. */
export const draftPage = z
  .object({
    id: z.string(),
    handle: z.string(),
    section: pageSection,
    title: z.string(),
    content: z.string(),
    lock: z.number().int(),
    is_published: z.boolean(),
    published_at: z.string().nullable(),
    updated_at: z.string(),
    updated_by: z.object({ name: z.string() }),
    revisions: z.number().int(),
  })
  .meta({ id: 'DraftPage' });
export type DraftPage = z.infer<typeof draftPage>;

/** Spec: a draft update sends title, content and the lock it read (a stale lock is 412). */
export const draftPageUpdate = z.strictObject({
  title: line().trim().min(1).max(200).optional(),
  content: text().max(1_000_000).optional(),
  lock: z.number().int().min(1),
});

export const draftPageParams = z.strictObject({
  service: line().min(1).max(64),
  section: pageSection,
  handle: line().min(1).max(64),
});
