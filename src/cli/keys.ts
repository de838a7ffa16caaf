import Table from 'cli-table3';
import type { Command } from 'commander';
import { repeatable } from './option-values.js';
import { addConnectionOptions, connect, type RemoteOptions } from './remote.js';

interface KeyOptions extends RemoteOptions {
  json?: boolean;
}

/** Keys are managed with the admin key: --api-key, else MEMD_API_KEY, else the server's own MEMD_ADMIN_KEY when this shell has it. */
const adminConnection = (options: KeyOptions) =>
  connect({ ...options, apiKey: options.apiKey ?? process.env.MEMD_ADMIN_KEY });

async function createKey(name: string, options: KeyOptions & { workspace: string[] }): Promise<void> {
  const { api_key: key } = await adminConnection(options).apiKeys.create({ name, workspaces: options.workspace });
  if (options.json) process.stdout.write(`${JSON.stringify(key, null, 2)}\n`);
  else process.stdout.write(`${key.key}\n`);
  process.stderr.write(
    `created ${key.id} (${key.name}) for ${key.workspaces.join(', ')}; the key above is shown only now\n`,
  );
}

async function listKeys(options: KeyOptions): Promise<void> {
  const { api_keys: keys } = await adminConnection(options).apiKeys.list();
  if (options.json) return void process.stdout.write(`${JSON.stringify(keys, null, 2)}\n`);
  if (keys.length === 0) return void process.stdout.write('no API keys\n');
  const table = new Table({
    head: ['id', 'name', 'prefix', 'workspaces', 'created', 'last used'],
    style: { head: [], border: [] },
  });
  for (const key of keys)
    table.push([
      key.id,
      key.name,
      key.key_prefix,
      key.workspaces.join(', '),
      key.created_at,
      key.last_used_at ?? 'never',
    ]);
  process.stdout.write(`${table.toString()}\n`);
}

async function revokeKey(id: string, options: KeyOptions): Promise<void> {
  await adminConnection(options).apiKeys.revoke(id);
  process.stdout.write(`revoked ${id}\n`);
}

export function keysCommand(program: Command): void {
  const keys = program
    .command('keys')
    .summary('create, list and revoke API keys')
    .description(
      'Manage the API keys of a running server, through its API with the admin key (--api-key, MEMD_API_KEY, else MEMD_ADMIN_KEY)',
    );
  const create = keys
    .command('create')
    .description('Issue a key limited to some workspaces; prints the secret (only this once) on stdout')
    .argument('<name>', 'what the key is for')
    .requiredOption('-w, --workspace <id>', 'a workspace the key may use; repeat for several', repeatable)
    .option('--json', 'print the whole record, secret included, as JSON')
    .action(createKey);
  const list = keys
    .command('list')
    .description('List the keys (never their secrets)')
    .option('--json', 'print as JSON')
    .action(listKeys);
  const revoke = keys
    .command('revoke')
    .description('Revoke a key: requests with it are refused from now on')
    .argument('<id>', 'the key’s id (key_…)')
    .action(revokeKey);
  for (const command of [create, list, revoke]) addConnectionOptions(command);
}
