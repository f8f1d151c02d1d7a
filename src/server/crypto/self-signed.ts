/**
 * A new RSA-2048 key and a self-signed certificate (SHA-256), as PEM: the SAML service provider's signing
 * certificate, and the demo target's TLS certificate (which is meant to run out soon).
 */
import { createPrivateKey, randomBytes, webcrypto } from 'node:crypto';

export interface SelfSigned {
  /** PKCS#8 PEM. */
  privateKey: string;
  /** PEM. */
  cert: string;
}

export async function selfSignedCertificate(options: {
  commonName: string;
  notBefore: Date;
  notAfter: Date;
  /** Names a TLS server answers for (subjectAltName); none: a signing certificate. */
  dnsNames?: string[];
}): Promise<SelfSigned> {
  // @peculiar/x509 needs the Reflect metadata polyfill loaded first; both only when a certificate is made.
  await import('reflect-metadata');
  const x509 = await import('@peculiar/x509');
  const algorithm = {
    name: 'RSASSA-PKCS1-v1_5',
    hash: 'SHA-256',
    publicExponent: new Uint8Array([1, 0, 1]),
    modulusLength: 2048,
  };
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as CryptoKeyPair;
  const serial = randomBytes(16);
  serial[0]! &= 0x7f; // A positive serial number.
  const server = options.dnsNames?.length;
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: serial.toString('hex'),
      name: `CN=${options.commonName.replace(/[,+="\\<>;#]/g, ' ')}`,
      notBefore: options.notBefore,
      notAfter: options.notAfter,
      signingAlgorithm: algorithm,
      keys,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(
          server
            ? x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment
            : x509.KeyUsageFlags.digitalSignature,
          true,
        ),
        ...(server
          ? [
              new x509.SubjectAlternativeNameExtension(
                options.dnsNames!.map((value) => ({ type: 'dns' as const, value })),
              ),
              new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
            ]
          : []),
      ],
    },
    webcrypto as unknown as Crypto,
  );
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  const privateKey = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }).export({
    format: 'pem',
    type: 'pkcs8',
  }) as string;
  return { privateKey, cert: cert.toString('pem') + '\n' };
}
