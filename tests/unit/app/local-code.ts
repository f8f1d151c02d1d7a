import { localCodeLoader } from '../../../src/app/local/local-provider.js';
import { WRITE_KINDS } from '../../../src/app/write-kinds.js';

/**
 * The local layer's code and the app's write kinds for LocalProvider, loaded before any test renders: the app
 * has them loaded before it shows a user too (AuthProvider's `prepareSignedIn`).
 */
export const localCode = localCodeLoader(() => Promise.resolve(WRITE_KINDS));
await localCode.load();
