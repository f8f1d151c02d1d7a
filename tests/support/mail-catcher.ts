import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  to: string;
  subject: string;
  text: string;
}

/** A real SMTP server on a free loopback port that keeps every mail it receives. */
export class MailCatcher {
  readonly mails: CaughtMail[] = [];
  private waiters: Array<() => void> = [];
  private server: SMTPServer;
  port = 0;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, _session, callback) => {
        simpleParser(stream)
          .then((parsed) => {
            const to = Array.isArray(parsed.to) ? parsed.to[0]?.text : parsed.to?.text;
            this.mails.push({ to: to ?? '', subject: parsed.subject ?? '', text: parsed.text ?? '' });
            for (const wake of this.waiters.splice(0)) wake();
            callback();
          })
          .catch(callback);
      },
    });
  }

  /** Listens on `port` (a free one by default); a test may give the port of an SMTP server it stopped. */
  async start(port = 0): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    const address = this.server.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
    return `smtp://127.0.0.1:${this.port}?ignoreTLS=true`;
  }

  /** The newest mail to `to`, waiting for it to arrive. */
  async waitFor(
    to: string,
    predicate: (mail: CaughtMail) => boolean = () => true,
    timeoutMs = 5000,
  ): Promise<CaughtMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = [...this.mails].reverse().find((mail) => mail.to.includes(to) && predicate(mail));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The first link in a mail body that matches `pattern`. */
export function linkIn(mail: CaughtMail, pattern: RegExp): URL {
  const match = mail.text.match(pattern);
  if (!match) throw new Error(`no link matching ${pattern} in: ${mail.text}`);
  return new URL(match[0]);
}
