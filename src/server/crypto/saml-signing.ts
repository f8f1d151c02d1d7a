/**
 * The SAML service provider's signing key and certificate (docs/decisions.md#integrations): AuthnRequests,
 * LogoutRequests and LogoutResponses are signed with the key, and the SP metadata and the admin's provider page publish
 * the certificate for the identity provider. Like the sealing key (secret-box.ts) they come from the configuration
 * (BEACON_SAML_SP_KEY and BEACON_SAML_SP_CERT: PEM, or paths of PEM files), else from a file made once in the
 * data directory (`saml-sp.pem`: an RSA key and a self-signed certificate, readable by its owner only) and kept,
 * so the identity providers set up with it keep trusting it across restarts. Never in the database.
 */
import { createPrivateKey, randomBytes, X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { selfSignedCertificate } from './self-signed.js';

export interface SamlSigning {
  /** PEM (PKCS#8 when generated). */
  privateKey: string;
  /** PEM. */
  cert: string;
}

export const SAML_SP_FILE = 'saml-sp.pem';
/** A generated certificate's life: identity providers pin it, so it should not run out under them. */
const VALID_YEARS = 10;

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]+?-----END \1-----/g;

/** The PEM blocks of a text: its certificate and its private key. */
function pemBlocks(text: string): { key?: string; cert?: string } {
  const found: { key?: string; cert?: string } = {};
  for (const match of text.matchAll(PEM_BLOCK)) {
    if (match[1] === 'CERTIFICATE') found.cert ??= `${match[0]}\n`;
    else if (match[1]!.endsWith('PRIVATE KEY')) found.key ??= `${match[0]}\n`;
  }
  return found;
}

/** A configured value: PEM itself (newlines may be written `\n`), or the path of a PEM file. */
function pemOrFile(value: string, name: string): string {
  if (value.includes('-----BEGIN')) return value.replace(/\\n/g, '\n');
  try {
    return readFileSync(resolve(value), 'utf8');
  } catch (error) {
    throw new Error(`${name} is neither PEM nor a readable file: ${(error as Error).message}`);
  }
}

/** Throws unless `cert` is an X.509 certificate whose public key belongs to `privateKey`. */
function checked(privateKey: string | undefined, cert: string | undefined, source: string): SamlSigning {
  if (!privateKey || !cert) throw new Error(`${source} must hold a private key and a certificate (PEM)`);
  let matches: boolean;
  try {
    matches = new X509Certificate(cert).checkPrivateKey(createPrivateKey(privateKey));
  } catch (error) {
    throw new Error(`${source}: ${(error as Error).message}`);
  }
  if (!matches) throw new Error(`${source}: the certificate is not for this private key`);
  return { privateKey, cert };
}

/** A new RSA-2048 key and a self-signed certificate for it (SHA-256), as PEM. */
export function generateSamlSigning(commonName: string, now = new Date()): Promise<SamlSigning> {
  return selfSignedCertificate({
    commonName,
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: new Date(Date.UTC(now.getUTCFullYear() + VALID_YEARS, now.getUTCMonth(), now.getUTCDate())),
  });
}

/**
 * The data directory's key and certificate, made on first use. Written to a temporary file and linked into
 * place, which fails when the file exists: two processes starting at once on one directory keep the same one.
 */
async function dataDirSigning(dataDir: string, commonName: string): Promise<SamlSigning> {
  const file = join(dataDir, SAML_SP_FILE);
  if (!existsSync(file)) {
    const made = await generateSamlSigning(commonName);
    mkdirSync(dataDir, { recursive: true });
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(temporary, made.privateKey + made.cert, { mode: 0o600, flag: 'wx' });
    chmodSync(temporary, 0o600);
    try {
      linkSync(temporary, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(temporary);
    }
  }
  const { key, cert } = pemBlocks(readFileSync(file, 'utf8'));
  return checked(key, cert, file);
}

/**
 * The SP's signing key and certificate, read once: the configured ones (checked now, so a wrong pair stops the
 * start), else the data directory's (made when first needed: only SAML uses them).
 */
export function loadSamlSigning(config: {
  samlSpKey: string | undefined;
  samlSpCert: string | undefined;
  dataDir: string;
  publicUrl: URL;
}): () => Promise<SamlSigning> {
  if (config.samlSpKey || config.samlSpCert) {
    if (!config.samlSpKey || !config.samlSpCert)
      throw new Error('BEACON_SAML_SP_KEY and BEACON_SAML_SP_CERT must be set together');
    const key = pemBlocks(pemOrFile(config.samlSpKey, 'BEACON_SAML_SP_KEY')).key;
    const cert = pemBlocks(pemOrFile(config.samlSpCert, 'BEACON_SAML_SP_CERT')).cert;
    const signing = Promise.resolve(checked(key, cert, 'BEACON_SAML_SP_KEY and BEACON_SAML_SP_CERT'));
    return () => signing;
  }
  let signing: Promise<SamlSigning> | undefined;
  return () => {
    signing ??= dataDirSigning(config.dataDir, `Beacon SAML SP ${config.publicUrl.hostname}`).catch((error) => {
      signing = undefined;
      throw error;
    });
    return signing;
  };
}
