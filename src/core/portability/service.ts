import type { EmbeddingProvider } from '../../providers/embedding/types.js';
import type { Storage } from '../../storage/types.js';
import { isoNow, type Clock } from '../clock.js';
import type { CoreEvents } from '../events.js';
import type { WorkspaceService } from '../workspaces/service.js';
import { exportWorkspace, type ExportLine, type ExportOptions } from './export.js';
import { importRecords, type ImportRecord, type ImportReport } from './import.js';

interface PortabilityDeps {
  storage: Storage;
  embedder: EmbeddingProvider;
  clock: Clock;
  events: CoreEvents;
  workspaces: WorkspaceService;
}

/** Export and import of a whole workspace (the workspace must exist: both address it by name). */
export class PortabilityService {
  constructor(private readonly deps: PortabilityDeps) {}

  /** The export lines, read page by page as the caller consumes them; 404 before the first line if the workspace is absent. */
  async export(workspaceId: string, options: ExportOptions): Promise<AsyncGenerator<ExportLine>> {
    await this.deps.workspaces.get(workspaceId);
    return exportWorkspace(this.deps.storage, workspaceId, options, isoNow(this.deps.clock));
  }

  async import(workspaceId: string, records: AsyncIterable<ImportRecord>): Promise<ImportReport> {
    const scope = await this.deps.workspaces.writeScope(workspaceId);
    return importRecords(this.deps, scope, records);
  }
}
