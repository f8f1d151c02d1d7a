import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  member,
  memberAdd,
  memberUpdate,
  team,
  teamCreate,
  teamHandleParams,
  teamMemberParams,
  teamParams,
  teamUpdate,
} from '../../contract/catalogue.js';
import { errorResponses, pageQuery } from '../../contract/common.js';
import type { ServerContext } from '../context.js';
import { requireCaller, sendPage } from '../http.js';
import { addMember, changeMemberRole, listMembers, removeMember } from '../services/team-members.js';
import {
  clearTeamIcon,
  createTeam,
  deleteTeam,
  getTeam,
  listSubTeams,
  searchTeams,
  setTeamIcon,
  updateTeam,
} from '../services/teams.js';
import { readIconUpload } from './users.js';

const deleted = z.null().describe('Deleted');

export function teamRoutes(ctx: ServerContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/search/teams',
      {
        config: { scope: 'beacon.team.read' },
        schema: {
          tags: ['teams'],
          summary: 'Teams of this workspace by name, paged and searchable; total in the `total` header',
          querystring: pageQuery,
          response: { 200: z.array(team), ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        const { teams, total } = await searchTeams(ctx, await requireCaller(ctx, request), request.query);
        return sendPage(reply, teams, total);
      },
    );

    app.post(
      '/teams',
      {
        config: { scope: null },
        schema: {
          tags: ['teams'],
          summary: 'Create a team; its creator becomes its admin (not guests)',
          body: teamCreate,
          response: { 201: team, ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const caller = await requireCaller(ctx, request);
        return reply.code(201).send(await createTeam(ctx, caller, request.body));
      },
    );

    app.get(
      '/teams/:team',
      {
        config: { scope: 'beacon.team.read' },
        schema: {
          tags: ['teams'],
          summary: 'One team by handle or id, with the viewer’s rights',
          params: teamParams,
          response: { 200: team, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => getTeam(ctx, await requireCaller(ctx, request), request.params.team),
    );

    app.get(
      '/team/:handle',
      {
        config: { scope: 'beacon.team.read' },
        schema: {
          tags: ['teams'],
          summary: 'The create form’s handle check: the team, or 404 when the handle is free',
          params: teamHandleParams,
          response: { 200: team, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => getTeam(ctx, await requireCaller(ctx, request), request.params.handle),
    );

    app.patch(
      '/teams/:team',
      {
        config: { scope: null },
        schema: {
          tags: ['teams'],
          summary: 'Rename or describe a team (team admin, workspace admin or owner)',
          params: teamParams,
          body: teamUpdate,
          response: { 200: team, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => updateTeam(ctx, await requireCaller(ctx, request), request.params.team, request.body),
    );

    app.delete(
      '/teams/:team',
      {
        config: { scope: null },
        schema: {
          tags: ['teams'],
          summary: 'Delete a team without services or sub-teams (team admin, workspace admin or owner)',
          params: teamParams,
          response: { 204: deleted, ...errorResponses(401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        await deleteTeam(ctx, await requireCaller(ctx, request), request.params.team);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/teams/:team/icon',
      {
        config: { scope: null },
        schema: {
          tags: ['teams'],
          summary: 'Upload the team logo (multipart field `icon`, PNG, JPEG, GIF or WebP; team admin)',
          params: teamParams,
          consumes: ['multipart/form-data'],
          response: { 200: team, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const caller = await requireCaller(ctx, request);
        const data = await readIconUpload(request, ctx.config.maxUploadBytes);
        return setTeamIcon(ctx, caller, request.params.team, data);
      },
    );

    app.delete(
      '/teams/:team/icon',
      {
        config: { scope: null },
        schema: {
          tags: ['teams'],
          summary: 'Clear the team logo (team admin)',
          params: teamParams,
          response: { 200: team, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => clearTeamIcon(ctx, await requireCaller(ctx, request), request.params.team),
    );

    app.get(
      '/teams/:team/members',
      {
        config: { scope: 'beacon.team.read' },
        schema: {
          tags: ['teams'],
          summary: 'Members of a team by name, paged; total in the `total` header',
          params: teamParams,
          querystring: pageQuery,
          response: { 200: z.array(member), ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        const caller = await requireCaller(ctx, request);
        const { members, total } = await listMembers(ctx, caller, request.params.team, request.query);
        return sendPage(reply, members, total);
      },
    );

    app.post(
      '/teams/:team/members',
      {
        config: { scope: null },
        schema: {
          tags: ['teams'],
          summary: 'Add a user of this workspace (id or handle) to a team (team admin)',
          params: teamParams,
          body: memberAdd,
          response: { 201: member, ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const caller = await requireCaller(ctx, request);
        return reply.code(201).send(await addMember(ctx, caller, request.params.team, request.body));
      },
    );

    app.patch(
      '/teams/:team/members/:user',
      {
        config: { scope: null },
        schema: {
          tags: ['teams'],
          summary: 'Change a member’s role (team admin; a team keeps at least one admin)',
          params: teamMemberParams,
          body: memberUpdate,
          response: { 200: member, ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request) => {
        const caller = await requireCaller(ctx, request);
        return changeMemberRole(ctx, caller, request.params.team, request.params.user, request.body.role);
      },
    );

    app.delete(
      '/teams/:team/members/:user',
      {
        config: { scope: null },
        schema: {
          tags: ['teams'],
          summary: 'Remove a member (team admin, or the member leaving; a team keeps at least one admin)',
          params: teamMemberParams,
          response: { 204: deleted, ...errorResponses(401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        await removeMember(ctx, await requireCaller(ctx, request), request.params.team, request.params.user);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/teams/:team/teams',
      {
        config: { scope: 'beacon.team.read' },
        schema: {
          tags: ['teams'],
          summary: 'Sub-teams of a team, paged; total in the `total` header',
          params: teamParams,
          querystring: pageQuery,
          response: { 200: z.array(team), ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        const caller = await requireCaller(ctx, request);
        const { teams, total } = await listSubTeams(ctx, caller, request.params.team, request.query);
        return sendPage(reply, teams, total);
      },
    );

    app.post(
      '/teams/:team/teams',
      {
        config: { scope: null },
        schema: {
          tags: ['teams'],
          summary: 'Create a sub-team (team admin); its creator becomes its admin',
          params: teamParams,
          body: teamCreate,
          response: { 201: team, ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const caller = await requireCaller(ctx, request);
        return reply.code(201).send(await createTeam(ctx, caller, request.body, request.params.team));
      },
    );
  };
}
