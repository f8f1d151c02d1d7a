import { randomUUID } from 'node:crypto';
import type { ServerContext } from '../../src/server/context.js';
import { newUserRow } from '../../src/server/db/repositories/users.js';
import type { NewUser } from '../../src/server/db/schema.js';
import { hashPassword } from '../../src/server/crypto/secrets.js';
import { DOMAIN, insertInBatches, PASSWORD } from './harness.js';

// prettier-ignore
const FIRST_NAMES = [
  'Ada', 'Alan', 'Amara', 'Anna', 'Ben', 'Carla', 'Chen', 'Dara', 'Elena', 'Emil', 'Fatima', 'Grace', 'Hugo',
  'Ines', 'Ivan', 'Jon', 'Kemal', 'Lena', 'Liam', 'Maya', 'Nils', 'Noor', 'Olga', 'Omar', 'Priya', 'Rosa',
  'Sami', 'Tara', 'Umar', 'Yuki',
];
// prettier-ignore
export const LAST_NAMES = [
  'Andersen', 'Bauer', 'Costa', 'Dubois', 'Evans', 'Fischer', 'Garcia', 'Hansen', 'Ito', 'Jensen', 'Kowalski',
  'Lopez', 'Moreau', 'Nakamura', 'Okafor', 'Petrov', 'Quinn', 'Rossi', 'Silva', 'Tanaka',
];

/**
 * `count - 1` members besides the owner, straight into the table (hashing 2,000 passwords with argon2 would
 * take minutes and measure nothing), with varied names so searches match a realistic share.
 */
export async function seedUsers(ctx: ServerContext, workspaceId: string, count: number): Promise<NewUser[]> {
  const passwordHash = await hashPassword(PASSWORD);
  const start = Date.parse('2024-01-01T00:00:00Z');
  const users: NewUser[] = [];
  for (let i = 1; i < count; i++) {
    // Different strides so first and last names combine in many ways rather than repeating in lockstep.
    const first = FIRST_NAMES[i % FIRST_NAMES.length]!;
    const last = LAST_NAMES[Math.floor(i / 7) % LAST_NAMES.length]!;
    users.push({
      ...newUserRow({
        id: randomUUID(),
        workspace_id: workspaceId,
        handle: `${first}-${last}-${i}`.toLowerCase(),
        name: `${first} ${last}`,
        email: `${first}.${last}${i}@${DOMAIN}.example`,
        password_hash: passwordHash,
        role: 'member',
        bio: i % 3 === 0 ? `${first} works on the ${last} team's services.` : null,
        created_at: new Date(start + i * 60_000).toISOString(),
      }),
      last_login: i % 4 === 0 ? new Date(start + i * 3_600_000).toISOString() : null,
    });
  }
  await insertInBatches(ctx, 'users', users);
  return users;
}
