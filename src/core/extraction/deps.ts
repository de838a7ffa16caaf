import type { Logger } from '../logger.js';
import type { LlmProvider } from '../../providers/llm/types.js';
import type { Storage } from '../../storage/types.js';
import type { Clock } from '../clock.js';
import type { MemoryService } from '../memories/service.js';
import type { WorkspaceService } from '../workspaces/service.js';

/** What the services that derive memories from other material (commits, chats, entity insights) work with. */
export interface DerivationDeps {
  storage: Storage;
  memories: MemoryService;
  workspaces: WorkspaceService;
  llm: LlmProvider | null;
  clock: Clock;
  log: Logger;
}
