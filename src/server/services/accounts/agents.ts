import type { Caller } from './auth.js';

/** Who caused a change, as events record it (docs/decisions.md#feeds): a user, an API client or a runner. */
export interface Agent {
  /** The user (or an API client's `client:{id}` stand-in); null for a runner. */
  id: string | null;
  name: string;
}

/** The shared runner's checks, which no one person runs. */
export const SHARED_RUNNER_AGENT: Agent = { id: null, name: 'Beacon health checks' };

export function agentOf(caller: Caller): Agent {
  return { id: caller.user.id, name: caller.user.name };
}

/** The columns of an event that name its agent. */
export function agentColumns(agent: Agent): { actor_id: string | null; agent_name: string } {
  return { actor_id: agent.id, agent_name: agent.name };
}
