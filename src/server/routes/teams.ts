import type { FastifyInstance } from 'fastify';
import { teamOperations } from '../../contract/operations/teams.js';
import type { ServerContext } from '../context.js';
import { routes } from '../operations.js';
import { keptTeamAnswer, keptTeamsAnswer } from '../cache/catalogue-cache.js';
import { addMember, changeMemberRole, listMembers, removeMember } from '../services/catalogue/team-members.js';
import {
  clearTeamIcon,
  createTeam,
  deleteTeam,
  getTeam,
  getTeamPolicies,
  listSubTeams,
  searchTeams,
  setTeamIcon,
  updateTeam,
  updateTeamPolicies,
} from '../services/catalogue/teams.js';
import { readIconUpload } from './uploads.js';

export function teamRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) =>
    routes(
      ctx,
      app,
      teamOperations,
      {
        searchTeams: async ({ caller, query }) => {
          const { teams, total } = await searchTeams(ctx, caller, query);
          return { items: teams, total };
        },
        createTeam: ({ caller, body }) => createTeam(ctx, caller, body),
        getTeam: ({ caller, params }) => getTeam(ctx, caller, params.team),
        checkTeamHandle: ({ caller, params }) => getTeam(ctx, caller, params.handle),
        updateTeam: ({ caller, params, body }) => updateTeam(ctx, caller, params.team, body),
        getTeamPolicies: ({ caller, params }) => getTeamPolicies(ctx, caller, params.team),
        updateTeamPolicies: ({ caller, params, body }) => updateTeamPolicies(ctx, caller, params.team, body),
        deleteTeam: async ({ caller, params }) => {
          await deleteTeam(ctx, caller, params.team);
          return null;
        },
        uploadTeamIcon: async ({ caller, params, request }) =>
          setTeamIcon(ctx, caller, params.team, await readIconUpload(request, ctx.config.maxUploadBytes)),
        clearTeamIcon: ({ caller, params }) => clearTeamIcon(ctx, caller, params.team),
        listTeamMembers: async ({ caller, params, query }) => {
          const { members, total } = await listMembers(ctx, caller, params.team, query);
          return { items: members, total };
        },
        addTeamMember: ({ caller, params, body }) => addMember(ctx, caller, params.team, body),
        changeTeamMemberRole: ({ caller, params, body }) =>
          changeMemberRole(ctx, caller, params.team, params.user, body.role),
        removeTeamMember: async ({ caller, params }) => {
          await removeMember(ctx, caller, params.team, params.user);
          return null;
        },
        listSubTeams: async ({ caller, params, query }) => {
          const { teams, total } = await listSubTeams(ctx, caller, params.team, query);
          return { items: teams, total };
        },
        createSubTeam: ({ caller, params, body }) => createTeam(ctx, caller, body, params.team),
      },
      {
        searchTeams: { keep: keptTeamsAnswer },
        getTeam: { keep: keptTeamAnswer },
      },
    );
}
