import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A key and its certificate, PEM. */
export interface KeyPair {
  key: string;
  cert: string;
}

const DAY_MS = 86_400_000;

/** A self-signed root CA valid from yesterday for `days` days. */
export function rootCa(commonName = 'Beacon Test Root', days = 3650): KeyPair {
  return withDir((dir) => {
    openssl([
      'req',
      '-x509',
      ...newKey(dir),
      '-sha256',
      '-days',
      String(days),
      '-subj',
      `/CN=${commonName}/O=Beacon Tests`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
      '-out',
      join(dir, 'cert.pem'),
    ]);
    return read(dir);
  });
}

export interface IssueOptions {
  commonName: string;
  issuer: KeyPair;
  /** subjectAltName entries, e.g. `DNS:a.test`, `IP:127.0.0.1` (none for a CA). */
  altNames?: string[];
  /** An intermediate CA rather than a leaf. */
  ca?: boolean;
  /** Days from now the certificate ends; negative for one that has expired (default 30). */
  daysLeft?: number;
}

/**
 * A certificate signed by `issuer`, with any validity (`openssl ca` can backdate; `req -x509` cannot): valid from
 * 60 days before now (or 1 day before its end, when that is earlier) until `daysLeft` days from now.
 */
export function issue(options: IssueOptions): KeyPair {
  return withDir((dir) => {
    const end = Date.now() + (options.daysLeft ?? 30) * DAY_MS;
    const start = Math.min(Date.now() - 60 * DAY_MS, end - DAY_MS);
    const extensions = options.ca
      ? ['basicConstraints=critical,CA:TRUE,pathlen:0', 'keyUsage=critical,keyCertSign,cRLSign']
      : [
          'basicConstraints=CA:FALSE',
          'keyUsage=critical,digitalSignature',
          'extendedKeyUsage=serverAuth',
          ...(options.altNames?.length ? [`subjectAltName=${options.altNames.join(',')}`] : []),
        ];
    writeFileSync(join(dir, 'index.txt'), '');
    writeFileSync(join(dir, 'issuer.key'), options.issuer.key);
    writeFileSync(join(dir, 'issuer.pem'), options.issuer.cert);
    writeFileSync(
      join(dir, 'ca.cnf'),
      [
        '[ca]',
        'default_ca = test_ca',
        '[test_ca]',
        `database = ${join(dir, 'index.txt')}`,
        `new_certs_dir = ${dir}`,
        'rand_serial = yes',
        'default_md = sha256',
        'policy = any_name',
        'unique_subject = no',
        'email_in_dn = no',
        '[any_name]',
        'commonName = supplied',
        'organizationName = optional',
        '[ext]',
        'subjectKeyIdentifier = hash',
        'authorityKeyIdentifier = keyid',
        ...extensions,
        '',
      ].join('\n'),
    );
    openssl([
      'req',
      '-new',
      ...newKey(dir),
      '-subj',
      `/CN=${options.commonName}/O=Beacon Tests`,
      '-out',
      join(dir, 'csr.pem'),
    ]);
    openssl([
      'ca',
      '-batch',
      '-notext',
      '-config',
      join(dir, 'ca.cnf'),
      '-extensions',
      'ext',
      '-cert',
      join(dir, 'issuer.pem'),
      '-keyfile',
      join(dir, 'issuer.key'),
      '-startdate',
      asn1Time(start),
      '-enddate',
      asn1Time(end),
      '-in',
      join(dir, 'csr.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ]);
    return read(dir);
  });
}

/** A leaf for `host` (a name, or 127.0.0.1) signed by its own throwaway root; for tests that need one certificate. */
export function leafFor(host: string, daysLeft: number): KeyPair & { root: KeyPair } {
  const root = rootCa();
  const altNames = /^[\d.]+$/.test(host) ? [`IP:${host}`] : [`DNS:${host}`];
  return { ...issue({ commonName: host, issuer: root, altNames, daysLeft }), root };
}

/** UTCTime, YYMMDDHHMMSSZ. */
function asn1Time(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/[-:T]/g, '')
    .replace(/\.\d+Z$/, 'Z')
    .slice(2);
}

function newKey(dir: string): string[] {
  return ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', join(dir, 'key.pem')];
}

function openssl(args: string[]): void {
  execFileSync('openssl', args, { stdio: 'pipe' });
}

function read(dir: string): KeyPair {
  return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
}

function withDir<T>(use: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'beacon-certs-'));
  try {
    return use(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
