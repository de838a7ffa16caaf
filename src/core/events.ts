import { EventEmitter } from 'node:events';

/**
 * In-process notifications between core services: a write tells readers (the recall cache) that a workspace
 * changed. Across API nodes the same signal travels through the database (see storage notifications).
 */
export class CoreEvents {
  private readonly emitter = new EventEmitter({ captureRejections: false });

  constructor() {
    this.emitter.setMaxListeners(100);
  }

  memoriesChanged(workspaceId: string): void {
    this.emitter.emit('memories-changed', workspaceId);
  }

  onMemoriesChanged(listener: (workspaceId: string) => void): () => void {
    this.emitter.on('memories-changed', listener);
    return () => this.emitter.off('memories-changed', listener);
  }

  tasksQueued(): void {
    this.emitter.emit('tasks-queued');
  }

  onTasksQueued(listener: () => void): () => void {
    this.emitter.on('tasks-queued', listener);
    return () => this.emitter.off('tasks-queued', listener);
  }
}
