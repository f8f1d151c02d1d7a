import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { isCredentialParameter, urlCredential, withoutCredentials } from '../../../domain/url-credentials.js';

/**
 * Issue 48, docs/api.md. A status page's custom domain is served only once a `_beacon-challenge.{domain}` TXT
 * record holds the page's token: any number of pages may name a domain while it is pending, one may hold it
 * verified. A catalogue source gets a sealed `token`; a credential in a source's URL is taken out of it.
 */
export const CREDENTIAL_REMOVED =
  "Beacon took a credential out of this source's URL. Give it to the source as its token (sent as " +
  'Authorization: Bearer), then sync it again.';

const DAY_MS = 86_400_000;

interface Rows {
  status_pages: {
    id: string;
    custom_domain: string | null;
    custom_domain_token: string | null;
    custom_domain_next_check_at: number | null;
  };
  catalog_sources: {
    id: string;
    url: string | null;
    etag: string | null;
    last_sync_at: string | null;
    last_sync_status: string | null;
    last_sync_error: string | null;
    next_sync_at: number | null;
  };
}

/** `text` with every credential parameter's value of the URLs in it blanked (an old error echoed its URL). */
function scrubbed(text: string): string {
  return text.replace(/([?&])([^=&#\s]+)=([^&#\s]*)/g, (whole, sep: string, name: string) =>
    isCredentialParameter(decodeURIComponentSafe(name)) ? `${sep}${name}=…` : whole,
  );
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function parsed(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

export function domainProofsAndSourceTokensMigration() {
  return {
    async up(schemaDb: Kysely<unknown>): Promise<void> {
      const db = schemaDb as Kysely<Rows>;
      for (const column of ['custom_domain_token', 'custom_domain_verified_at', 'custom_domain_checked_at']) {
        await schemaDb.schema.alterTable('status_pages').addColumn(column, 'text').execute();
      }
      await schemaDb.schema.alterTable('status_pages').addColumn('custom_domain_check_error', 'text').execute();
      await schemaDb.schema.alterTable('status_pages').addColumn('custom_domain_next_check_at', 'bigint').execute();
      // A name is not a claim: only a verified domain is unique (the Host header picks its page).
      await schemaDb.schema.dropIndex('status_pages_custom_domain').execute();
      await schemaDb.schema
        .createIndex('status_pages_custom_domain')
        .on('status_pages')
        .column('custom_domain')
        .execute();
      await schemaDb.schema
        .createIndex('status_pages_verified_domain')
        .on('status_pages')
        .column('custom_domain')
        .unique()
        .where(sql.ref('custom_domain_verified_at'), 'is not', null)
        .execute();
      await schemaDb.schema
        .createIndex('status_pages_domain_checks')
        .on('status_pages')
        .column('custom_domain_next_check_at')
        .execute();
      // Domains named before were never proved: pending, each with a token of its own (as domain-proofs.ts makes).
      const named = await db.selectFrom('status_pages').select('id').where('custom_domain', 'is not', null).execute();
      for (const { id } of named) {
        await db
          .updateTable('status_pages')
          .set({
            custom_domain_token: randomBytes(20).toString('hex'),
            custom_domain_next_check_at: Date.now() + DAY_MS,
          })
          .where('id', '=', id)
          .execute();
      }

      await schemaDb.schema.alterTable('catalog_sources').addColumn('token_sealed', 'text').execute();
      // A migration has no encryption key to seal with: a credential is taken out, and the source waits for its
      // token (not synced on schedule until it is edited). Old errors that echoed a URL lose its credentials.
      const sources = await db
        .selectFrom('catalog_sources')
        .select(['id', 'url', 'last_sync_at', 'last_sync_error'])
        .where((eb) => eb.or([eb('url', 'is not', null), eb('last_sync_error', 'is not', null)]))
        .execute();
      const now = new Date().toISOString();
      for (const source of sources) {
        const url = source.url === null ? null : parsed(source.url);
        if (url && urlCredential(url)) {
          await db
            .updateTable('catalog_sources')
            .set({
              url: withoutCredentials(url).href,
              etag: null,
              last_sync_at: source.last_sync_at ?? now,
              last_sync_status: 'failed',
              last_sync_error: CREDENTIAL_REMOVED,
              next_sync_at: null,
            })
            .where('id', '=', source.id)
            .execute();
        } else if (source.last_sync_error && scrubbed(source.last_sync_error) !== source.last_sync_error) {
          await db
            .updateTable('catalog_sources')
            .set({ last_sync_error: scrubbed(source.last_sync_error) })
            .where('id', '=', source.id)
            .execute();
        }
      }
    },
  };
}
