import { lookup as dnsLookup } from 'node:dns';
import type { LookupFunction } from 'node:net';

/**
 * Name resolution that sends every name under .localhost to loopback, as browsers do (RFC 6761), so a workspace
 * host such as acme.localhost works on a machine whose resolver does not know it.
 */
export const localhostAwareLookup: LookupFunction = (hostname, options, callback) => {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) {
    if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
    else callback(null, '127.0.0.1', 4);
    return;
  }
  dnsLookup(hostname, options, callback);
};
