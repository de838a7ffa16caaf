import { Type } from 'typebox';
import { bundleArchive } from '../../core/skills/bundle.js';
import { decodeContent, encodeContent } from '../../core/skills/files.js';
import type { CoreServices } from '../../services.js';
import { listedView, requestedNames, resolvedView } from '../registry-views.js';
import { registryCallers } from '../registry-callers.js';
import { commonErrors, ErrorResponse, WorkspaceQuery } from '../schemas/common.js';
import {
  CreateSkillBody,
  ListSkillsQuery,
  PutFileBody,
  ResolvedSkills,
  ResolveSkillsBody,
  SkillEnvelope,
  SkillFileContent,
  SkillFileInfo,
  SkillFileParams,
  SkillList,
  SkillParams,
  SkillSyncResponse,
  SyncSkillBody,
  UpdateSkillBody,
} from '../schemas/skill.js';
import type { App } from '../server.js';

const tags = ['skills'];
const GZIP = 'application/gzip';

/**
 * Skills: a SKILL.md manifest plus files, at user, workspace, tenant or global scope. Entries of a workspace are
 * reached from that workspace; entries above it from anywhere, and changed with the admin key only.
 */
export function skillRoutes(app: App, services: CoreServices): void {
  const { scoped: scopedCaller, entry: entryCaller } = registryCallers(services, 'skill');
  const skills = services.skills;

  app.post(
    '/skills',
    {
      schema: {
        tags,
        summary: 'Create a skill from a SKILL.md manifest (or its body and fields) and initial files',
        body: CreateSkillBody,
        response: { 201: SkillEnvelope, 409: ErrorResponse, ...commonErrors },
      },
    },
    async (request, reply) => {
      const caller = await scopedCaller(request, request.body);
      return reply.status(201).send({ skill: await skills.create(caller, request.body) });
    },
  );

  app.get(
    '/skills',
    {
      schema: {
        tags,
        summary: 'Skills visible here: the precedence winner of each name (user, workspace, tenant, global)',
        querystring: ListSkillsQuery,
        response: { 200: SkillList, ...commonErrors },
      },
    },
    async (request) => {
      const q = request.query;
      const caller = await scopedCaller(request, q);
      const ranked = await skills.list(caller, { scope: q.scope, includeShadowed: q.include_shadowed });
      return {
        skills: ranked.slice(q.offset, q.offset + q.limit).map((r) => listedView(r, r.entry)),
        total_count: ranked.length,
      };
    },
  );

  app.post(
    '/skills/resolve',
    {
      schema: {
        tags,
        summary: 'The precedence winner of each name',
        body: ResolveSkillsBody,
        response: { 200: ResolvedSkills, ...commonErrors },
      },
    },
    async (request) => {
      const caller = await scopedCaller(request, request.body);
      const names = requestedNames(request.body);
      const { first, found, not_found } = resolvedView(names, await skills.resolve(caller, names), (skill) => skill);
      return { skill: first, skills: found, not_found };
    },
  );

  app.get(
    '/skills/:skill_id',
    {
      schema: {
        tags,
        summary: 'A skill (metadata and manifest)',
        params: SkillParams,
        querystring: WorkspaceQuery,
        response: { 200: SkillEnvelope, ...commonErrors },
      },
    },
    async (request) => ({
      skill: await skills.get(await entryCaller(request, request.params.skill_id), request.params.skill_id),
    }),
  );

  app.put(
    '/skills/:skill_id',
    {
      schema: {
        tags,
        summary: 'Change a skill: its manifest, description, version, source mode or metadata (not its name)',
        params: SkillParams,
        querystring: WorkspaceQuery,
        body: UpdateSkillBody,
        response: { 200: SkillEnvelope, ...commonErrors },
      },
    },
    async (request) => {
      const caller = await entryCaller(request, request.params.skill_id);
      return { skill: await skills.update(caller, request.params.skill_id, request.body) };
    },
  );

  app.delete(
    '/skills/:skill_id',
    {
      schema: {
        tags,
        summary: 'Delete a skill and its files',
        params: SkillParams,
        querystring: WorkspaceQuery,
        response: { 204: Type.Null(), ...commonErrors },
      },
    },
    async (request, reply) => {
      await skills.delete(await entryCaller(request, request.params.skill_id), request.params.skill_id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/skills/:skill_id/manifest',
    {
      schema: {
        tags,
        summary: 'The SKILL.md content, as text',
        params: SkillParams,
        querystring: WorkspaceQuery,
        response: {
          200: { description: 'SKILL.md', content: { 'text/markdown': { schema: Type.String() } } },
          ...commonErrors,
        },
      },
    },
    async (request, reply) => {
      const skill = await skills.get(await entryCaller(request, request.params.skill_id), request.params.skill_id);
      return reply.type('text/markdown; charset=utf-8').send(skill.manifest);
    },
  );

  app.get(
    '/skills/:skill_id/files',
    {
      schema: {
        tags,
        summary: 'The files of a skill (SKILL.md included) with size and SHA-256',
        params: SkillParams,
        querystring: WorkspaceQuery,
        response: { 200: Type.Object({ files: Type.Array(SkillFileInfo) }), ...commonErrors },
      },
    },
    async (request) => ({
      files: await skills.listFiles(await entryCaller(request, request.params.skill_id), request.params.skill_id),
    }),
  );

  app.get(
    '/skills/:skill_id/bundle',
    {
      schema: {
        tags,
        summary:
          'The whole skill as a gzipped tar: every file under `<name>/` (`curl … | tar xz` makes the skill folder)',
        params: SkillParams,
        querystring: WorkspaceQuery,
        response: {
          200: { description: 'tar.gz', content: { [GZIP]: { schema: Type.String({ format: 'binary' }) } } },
          ...commonErrors,
        },
      },
    },
    async (request, reply) => {
      const { skill, files } = await skills.bundle(
        await entryCaller(request, request.params.skill_id),
        request.params.skill_id,
      );
      return reply
        .type(GZIP)
        .header('content-disposition', `attachment; filename="${skill.name}.tar.gz"`)
        .send(bundleArchive(skill.name, files) as never);
    },
  );

  app.get(
    '/skills/:skill_id/files/*',
    {
      schema: {
        tags,
        summary: 'One file: text as is, other bytes base64',
        params: SkillFileParams,
        querystring: WorkspaceQuery,
        response: { 200: Type.Object({ file: SkillFileContent }), ...commonErrors },
      },
    },
    async (request) => {
      const { content, ...info } = await skills.getFile(
        await entryCaller(request, request.params.skill_id),
        request.params.skill_id,
        request.params['*'],
      );
      return { file: { ...info, ...encodeContent(content) } };
    },
  );

  app.put(
    '/skills/:skill_id/files/*',
    {
      schema: {
        tags,
        summary:
          'Create or replace one file (idempotent: the same content changes nothing); SKILL.md replaces the manifest',
        params: SkillFileParams,
        querystring: WorkspaceQuery,
        body: PutFileBody,
        response: {
          200: Type.Object({ file: SkillFileInfo }),
          201: Type.Object({ file: SkillFileInfo }),
          ...commonErrors,
        },
      },
    },
    async (request, reply) => {
      const caller = await entryCaller(request, request.params.skill_id);
      const content = decodeContent(request.body.content, request.body.encoding ?? 'utf8');
      const { file, created } = await skills.putFile(caller, request.params.skill_id, request.params['*'], content);
      return reply.status(created ? 201 : 200).send({ file });
    },
  );

  app.delete(
    '/skills/:skill_id/files/*',
    {
      schema: {
        tags,
        summary: 'Delete one file (not SKILL.md)',
        params: SkillFileParams,
        querystring: WorkspaceQuery,
        response: { 204: Type.Null(), ...commonErrors },
      },
    },
    async (request, reply) => {
      await skills.deleteFile(
        await entryCaller(request, request.params.skill_id),
        request.params.skill_id,
        request.params['*'],
      );
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/skills/:skill_id/sync',
    {
      schema: {
        tags,
        summary: 'Two-way sync with the client’s snapshot: what to upload, download and delete on each side',
        description:
          'Send every file you have with its SHA-256 and modification time, and `since` = the `synced_at` of your last completed sync. ' +
          'A file changed on one side only goes to the other; one missing on a side and unchanged on the other since `since` was deleted there, ' +
          'and the deletion is applied; both changed: the source mode decides. Content sent with a file the server needs is stored in the same call. ' +
          'SKILL.md is never deleted. The request is applied whole or not at all.',
        params: SkillParams,
        querystring: WorkspaceQuery,
        body: SyncSkillBody,
        response: { 200: SkillSyncResponse, ...commonErrors },
      },
    },
    async (request) => {
      const caller = await entryCaller(request, request.params.skill_id);
      return skills.sync(caller, request.params.skill_id, {
        since: request.body.since ?? null,
        files: request.body.files,
      });
    },
  );
}
