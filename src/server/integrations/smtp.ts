import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { Logger } from 'pino';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/** Where mail goes when no SMTP server is configured. */
export const outboxDirOf = (dataDir: string) => join(dataDir, 'outbox');

/**
 * Bounds on one SMTP send. The mail outbox leases a mail for longer than a send can take (jobs/mail-outbox.ts),
 * so no other process picks it up while it is being sent; nodemailer's own defaults run to minutes.
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/**
 * SMTP when a URL is configured; otherwise every mail is written as an .eml file to `outboxDir`, so a
 * self-hosted Beacon without a mail server can still follow invite and reset links. The mail's text (its
 * links) is never logged.
 */
export function createMailer(options: { smtpUrl?: string; from: string; outboxDir: string; logger: Logger }): Mailer {
  const { smtpUrl, from, outboxDir, logger } = options;
  if (smtpUrl) {
    const transport = nodemailer.createTransport(new SMTPTransport({ url: smtpUrl, ...SMTP_TIMEOUTS }));
    return {
      async send(mail) {
        await transport.sendMail({ from, ...mail });
        logger.info({ to: mail.to, subject: mail.subject }, 'mail sent');
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let sequence = 0;
  return {
    async send(mail) {
      const info = await transport.sendMail({ from, ...mail });
      await mkdir(outboxDir, { recursive: true });
      const file = join(outboxDir, `${Date.now()}-${process.pid}-${++sequence}.eml`);
      await writeFile(file, info.message as Buffer);
      logger.info({ to: mail.to, subject: mail.subject, file }, 'mail written to the outbox');
    },
    close: () => transport.close(),
  };
}
