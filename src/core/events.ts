import { EventEmitter } from 'node:events';
import type { WorkspaceStore } from '../storage/types.js';

/**
 * Notifications between core services. A change to a workspace's memories is counted in the database
 * (`memory_versions`), so that every API node's recall cache stops answering from what it read before; background
 * work queued is announced in process (other nodes' task runners poll).
 */
export class CoreEvents {
  private readonly emitter = new EventEmitter({ captureRejections: false });

  constructor(private readonly versions: Pick<WorkspaceStore, 'bumpMemoryVersion'>) {
    this.emitter.setMaxListeners(100);
  }

  /**
   * Memories or links of the workspace changed (committed). Writers await it before they answer: a client that
   * has its 201 finds the change through any node, never a cached result from before it.
   */
  memoriesChanged(workspaceId: string): Promise<void> {
    return this.versions.bumpMemoryVersion(workspaceId);
  }

  tasksQueued(): void {
    this.emitter.emit('tasks-queued');
  }

  onTasksQueued(listener: () => void): () => void {
    this.emitter.on('tasks-queued', listener);
    return () => this.emitter.off('tasks-queued', listener);
  }
}
