/**
 * Secrets received from vendors (Slack tokens) are stored sealed with AES-256-GCM (docs/decisions.md#integrations). The
 * key comes from BEACON_ENCRYPTION_KEY (32 bytes, base64 or hex), else from a file generated once in the data
 * directory: never from the database, so a copy of the database alone does not give the tokens away.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('The encryption key must be 32 bytes');
  }

  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64')}`;
  }

  /** Throws when the text was sealed with another key or altered. */
  open(sealed: string): string {
    const [version, body = ''] = sealed.split(':');
    if (version !== VERSION) throw new Error('Unknown sealed secret format');
    const bytes = Buffer.from(body, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}

function keyFromText(text: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error('BEACON_ENCRYPTION_KEY must be 32 bytes, as 64 hex digits or base64');
  return key;
}

/** The configured key, or the data directory's (created on first use, readable by its owner only). */
export function loadSecretBox(config: { encryptionKey: string | undefined; dataDir: string }): SecretBox {
  if (config.encryptionKey) return new SecretBox(keyFromText(config.encryptionKey));
  const file = join(config.dataDir, 'encryption.key');
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
  }
  return new SecretBox(keyFromText(readFileSync(file, 'utf8').trim()));
}
