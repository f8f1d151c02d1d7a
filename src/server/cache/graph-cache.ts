/**
 * The service graph's answers, kept per process (docs/decisions.md#graph). A graph is costly to walk (tens of
 * milliseconds for a hub) and large (hundreds of kilobytes), yet it changes only when a service, a dependency or a link
 * does: every such write bumps the workspace's graph version in its own transaction (migration 012), and every request
 * reads the versions first (one indexed read), so an answer is kept exactly as long as no process changed its graph.
 *
 * An answer is keyed by the versions of the workspace and of the workspaces it links to, by the root and depth
 * asked for, and by the viewer's visibility class: the owner-only services' teams the viewer may see (all of
 * them for workspace admins, the teams they belong to for others). Two viewers of one class see the same graph;
 * a viewer is never given an answer computed for a class that sees more.
 */
import { AnswerCache, FreshReads, type Answer } from './answer-cache.js';
import { perContext } from '../per-context.js';

export type GraphAnswer = Answer;

/** Bytes of answers (and their compressed twins) one process keeps, at the most: the oldest unused go. */
export const GRAPH_CACHE_BYTES = 64 * 1024 * 1024;

export class GraphCache extends AnswerCache {
  private readonly restricted = new Map<string, { versions: string; teams: Promise<string[]> }>();

  constructor(budget: number = GRAPH_CACHE_BYTES) {
    super(budget);
  }

  /**
   * The teams whose owner-only services the workspace has at `versions`, read once a version. Seeing new
   * versions forgets the workspace's answers of the old ones: no request will ask for them again (a request that
   * read the old versions just before the change misses, and walks).
   */
  restrictedTeams(workspaceId: string, versions: string, read: () => Promise<string[]>): Promise<string[]> {
    const held = this.restricted.get(workspaceId);
    if (!this.see(workspaceId, versions) && held?.versions === versions) return held.teams;
    const teams = read().then((found) => [...found].sort());
    const entry = { versions, teams };
    this.restricted.set(workspaceId, entry);
    teams.catch(() => {
      if (this.restricted.get(workspaceId) === entry) this.restricted.delete(workspaceId);
    });
    return teams;
  }
}

/** What each graph request reads first: the graph versions and, for a user who is not an admin, their teams. */
export interface GraphState {
  versions: string;
  teams: string[];
}

export const graphCacheOf = perContext(() => ({ answers: new GraphCache(), states: new FreshReads<GraphState>() }));
