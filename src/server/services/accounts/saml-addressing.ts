/**
 * Whether a SAML response was addressed to this service provider's ACS, which node-saml leaves to us
 * (node-saml#405). SAML 2.0 core 3.2.2: a Response's `Destination`, when present, must be the URL it arrived at.
 * Web SSO profile 4.1.4.2-3: a bearer `SubjectConfirmationData` must carry a `Recipient`, and it must be that URL.
 * Read with a namespace-aware XML parser, never a pattern over the text: prefixes, quotes and several
 * confirmations are all legal.
 */
import { DOMParser } from '@xmldom/xmldom';

const ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

function rootOf(xml: string): Element | null {
  // Malformed XML reports through onError; node-saml already refused what it could not read.
  const document = new DOMParser({ errorHandler: () => {} }).parseFromString(xml, 'text/xml');
  return document?.documentElement ?? null;
}

function elements(parent: Element, localName: string): Element[] {
  return Array.from(parent.getElementsByTagNameNS(ASSERTION_NS, localName));
}

/**
 * Why the response is not for `acs`, or null when it is. `responseXml` is the whole Response as received;
 * `assertionXml` the assertion whose signature node-saml checked (only a signed Recipient is trusted).
 */
export function addressingFault(responseXml: string, assertionXml: string, acs: string): string | null {
  const response = rootOf(responseXml);
  if (response?.hasAttribute('Destination') && response.getAttribute('Destination') !== acs)
    return `its Destination (${response.getAttribute('Destination')}) is not this provider's ACS URL`;
  const assertion = rootOf(assertionXml);
  if (!assertion) return 'the assertion could not be read';
  const bearers = elements(assertion, 'SubjectConfirmation').filter((c) => c.getAttribute('Method') === BEARER);
  const recipients = bearers.flatMap((confirmation) =>
    elements(confirmation, 'SubjectConfirmationData').map((data) => data.getAttribute('Recipient') ?? ''),
  );
  if (recipients.includes(acs)) return null;
  const named = recipients.filter(Boolean);
  return named.length > 0
    ? `its Recipient (${named.join(', ')}) is not this provider's ACS URL`
    : 'its subject confirmation names no Recipient';
}
