import { endpoint, methodsOver, type Operation, type Result } from '../operations.js';
import type { CallOptions, Transport } from '../transport.js';

export type Readiness = Result<Operation<'/health/ready', 'get'>>;

/** Liveness and readiness (no authentication). */
export function healthApi(transport: Transport) {
  const op = methodsOver(transport);
  return {
    /** `{status: 'healthy'}` while the process is up. */
    live: op('get', '/health'),
    /** The readiness of storage, embedder and search indexes: `status` is `not_ready` (status 503) until they are. Not retried. */
    ready: endpoint('get', '/health/ready', (options?: CallOptions) =>
      transport.send<Readiness>({
        retry: { retries: 0 },
        ...options,
        method: 'get',
        path: '/health/ready',
        read: 'json',
        answers: [503],
      }),
    ),
  };
}

/** API keys limited to workspaces (admin only). */
export function apiKeysApi(transport: Transport) {
  const op = methodsOver(transport);
  return {
    /** The secret is in the answer, and only there. */
    create: op('post', '/v1/api-keys'),
    list: op('get', '/v1/api-keys'),
    revoke: op('delete', '/v1/api-keys/{key_id}'),
  };
}

/** Erasure of everything a user or subject left (a workspace key erases in its own workspaces; the audit list is admin only). */
export function erasuresApi(transport: Transport) {
  const op = methodsOver(transport);
  return {
    /** Removes every record of `user_id` or `subject_id`; answers what was removed. */
    erase: op('post', '/v1/erasures'),
    /** The audit records: who asked, when, which selector (hashed), how much went. */
    list: op('get', '/v1/erasures'),
  };
}
