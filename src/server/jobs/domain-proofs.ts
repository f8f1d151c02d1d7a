/**
 * Custom domains looked for again (issue 48): each a day after its last answer (services/status-pages/domain-proofs.ts), by
 * whichever process claims it first, as catalogue sources are claimed (catalog-sync.ts).
 */
import type { ServerContext } from '../context.js';
import { claimDomainCheck, dueDomainChecks } from '../db/repositories/status-pages.js';
import { checkDomain, DOMAIN_CHECK_MS } from '../services/status-pages/domain-proofs.js';

const POLL_MS = 5 * 60_000;
const PAGES_PER_RUN = 50;

/** Checks the domains that are due, one after another; one that fails is logged. Answers how many were checked. */
export async function checkDueDomains(ctx: ServerContext): Promise<number> {
  const { db } = ctx.database;
  let checked = 0;
  for (const page of await dueDomainChecks(db, ctx.now().getTime(), PAGES_PER_RUN)) {
    try {
      // Claimed by moving its next check on: another process reading the same due rows skips it, and a check
      // that throws is tried again a day later rather than at every poll.
      const nextCheckAt = ctx.now().getTime() + DOMAIN_CHECK_MS;
      if (!(await claimDomainCheck(db, page.id, page.custom_domain_next_check_at, nextCheckAt))) continue;
      await checkDomain(ctx, page);
      checked += 1;
    } catch (error) {
      ctx.logger.warn({ err: error, pageId: page.id }, 'could not check a custom domain');
    }
  }
  return checked;
}

export function startDomainProofs(ctx: ServerContext, options: { pollMs?: number } = {}): { stop(): void } {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      await checkDueDomains(ctx);
    } catch (error) {
      ctx.logger.warn({ err: error }, 'could not check the custom domains');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void run(), options.pollMs ?? POLL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
