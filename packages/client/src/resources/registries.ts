import { endpoint, fillPath, methodsOver, type Operation, type Query } from '../operations.js';
import type { CallOptions, Transport } from '../transport.js';

const MANIFEST = '/v1/skills/{skill_id}/manifest';
const BUNDLE = '/v1/skills/{skill_id}/bundle';
type RegistryQuery = Query<Operation<typeof MANIFEST, 'get'>>;

/** Skills: a SKILL.md manifest and its files, visible by scope (user, workspace, tenant, global). */
export function skillsApi(transport: Transport) {
  const op = methodsOver(transport);
  return {
    create: op('post', '/v1/skills'),
    /** The precedence winner of each name. */
    list: op('get', '/v1/skills'),
    resolve: op('post', '/v1/skills/resolve', { idempotent: true }),
    get: op('get', '/v1/skills/{skill_id}'),
    update: op('put', '/v1/skills/{skill_id}'),
    delete: op('delete', '/v1/skills/{skill_id}'),
    /** The SKILL.md content, as text. */
    manifest: endpoint('get', MANIFEST, (skillId: string, query?: RegistryQuery, options?: CallOptions) =>
      transport.send<string>({ ...options, method: 'get', path: fillPath(MANIFEST, [skillId]), query, read: 'text' }),
    ),
    /** The whole skill as a gzipped tar (every file under `<name>/`). */
    bundle: endpoint('get', BUNDLE, (skillId: string, query?: RegistryQuery, options?: CallOptions) =>
      transport.send<Uint8Array>({
        ...options,
        method: 'get',
        path: fillPath(BUNDLE, [skillId]),
        query,
        read: 'bytes',
      }),
    ),
    files: {
      /** The files with size and SHA-256 (SKILL.md included). */
      list: op('get', '/v1/skills/{skill_id}/files'),
      /** `(skillId, path)`: text as is, other bytes base64. */
      get: op('get', '/v1/skills/{skill_id}/files/{*}'),
      /** `(skillId, path, {content, encoding?})`: create or replace. */
      put: op('put', '/v1/skills/{skill_id}/files/{*}'),
      delete: op('delete', '/v1/skills/{skill_id}/files/{*}'),
    },
    /** Two-way sync with the caller's snapshot. */
    sync: op('post', '/v1/skills/{skill_id}/sync'),
  };
}

/** MCP server entries, visible by scope (local, project, user, global); secrets are stored encrypted. */
export function mcpServersApi(transport: Transport) {
  const op = methodsOver(transport);
  return {
    create: op('post', '/v1/mcp-servers'),
    list: op('get', '/v1/mcp-servers'),
    /** The precedence winner of each name, with env and headers decrypted. */
    resolve: op('post', '/v1/mcp-servers/resolve', { idempotent: true }),
    /** The servers of a `{"mcpServers": {…}}` configuration file, at one scope. */
    import: op('post', '/v1/mcp-servers/import'),
    /** The visible winners as a `{"mcpServers": {…}}` configuration file. */
    export: op('get', '/v1/mcp-servers/export'),
    get: op('get', '/v1/mcp-servers/{server_id}'),
    update: op('put', '/v1/mcp-servers/{server_id}'),
    delete: op('delete', '/v1/mcp-servers/{server_id}'),
    sync: op('post', '/v1/mcp-servers/{server_id}/sync'),
  };
}

/** Applications (tenant-level; writing them needs the admin key) and their links to workspaces. */
export function applicationsApi(transport: Transport) {
  const op = methodsOver(transport);
  return {
    create: op('post', '/v1/applications'),
    list: op('get', '/v1/applications'),
    get: op('get', '/v1/applications/{app_id}'),
    update: op('put', '/v1/applications/{app_id}'),
    delete: op('delete', '/v1/applications/{app_id}'),
    /** `(appId, workspaceId, {enabled?, config_overrides?})`: status 201 when the link is new, 200 when changed. */
    link: op('post', '/v1/applications/{app_id}/workspaces/{workspace_id}'),
    unlink: op('delete', '/v1/applications/{app_id}/workspaces/{workspace_id}'),
    /** `(workspaceId)`: the applications linked to a workspace, each with its effective config there. */
    inWorkspace: op('get', '/v1/workspaces/{workspace_id}/applications'),
  };
}

/** Data-provider records of a workspace (`encrypted_args` goes in and never comes out). */
export function dataProvidersApi(transport: Transport) {
  const op = methodsOver(transport);
  return {
    create: op('post', '/v1/data-providers'),
    list: op('get', '/v1/data-providers'),
    get: op('get', '/v1/data-providers/{provider_id}'),
    update: op('put', '/v1/data-providers/{provider_id}'),
    delete: op('delete', '/v1/data-providers/{provider_id}'),
    sync: op('post', '/v1/data-providers/{provider_id}/sync'),
  };
}
