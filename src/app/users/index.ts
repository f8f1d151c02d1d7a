/** What the users feature offers the other features: the mute writes (home's Activity menu mutes a profile). */
export { MUTE_ALL, muteWrite, unmuteWrite, type MuteMode } from './mute-writes.js';
