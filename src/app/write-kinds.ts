import { acknowledgeWrite } from './alerts/acknowledge-write.js';
import type { AnyWriteKind } from './local/writes.js';
import { draftSaveWrite } from './pages/draft-writes.js';
import { starWrite, unstarWrite } from './services/use-star.js';
import { changeMuteWrite, muteWrite, unmuteWrite } from './users/mute-writes.js';

/**
 * Every kind of write the app queues in the outbox. Listed here, where the app is put together, so that a write
 * made on one screen is replayed and shown whichever screen is open after a reload.
 */
export const WRITE_KINDS: readonly AnyWriteKind[] = [
  starWrite,
  unstarWrite,
  muteWrite,
  changeMuteWrite,
  unmuteWrite,
  draftSaveWrite,
  acknowledgeWrite,
];
