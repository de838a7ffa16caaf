import type { Access } from '../access/access.js';
import type { ReflectRequest, ReflectResult, ReflectService } from '../reflect/service.js';
import type { RecallService } from './service.js';
import type { RecallRequest, RecallResult } from './types.js';

interface CallerSearchDeps {
  recall: RecallService;
  reflect: ReflectService;
  /** Fails with 404 when the workspace does not exist (`_default` always does). */
  requireWorkspace(workspaceId: string): Promise<unknown>;
  /** Slides the expiry of the session a call worked through (SessionService.keepAlive). */
  keepSessionAlive(sessionId: string): Promise<void>;
}

type Scoped<R> = Omit<R, 'workspaceId' | 'scopeContextId'>;
/** A recall as a caller asks it: the workspace and the preferred context come from its Access. */
export type CallerRecallRequest = Scoped<RecallRequest>;
export type CallerReflectRequest = Scoped<ReflectRequest>;

/**
 * Recall and reflect as a caller asks them: in the caller's workspace, preferring the context of the session it
 * works through (the scope boost), which the question keeps alive.
 */
export class CallerSearch {
  constructor(private readonly deps: CallerSearchDeps) {}

  async recall(access: Access, request: CallerRecallRequest): Promise<RecallResult> {
    const result = await this.deps.recall.recall({ ...request, ...(await this.enter(access)) });
    await this.leave(access);
    return result;
  }

  async reflect(access: Access, request: CallerReflectRequest): Promise<ReflectResult> {
    const result = await this.deps.reflect.reflect({ ...request, ...(await this.enter(access)) });
    await this.leave(access);
    return result;
  }

  private async enter(access: Access): Promise<{ workspaceId: string; scopeContextId: string | undefined }> {
    await this.deps.requireWorkspace(access.workspaceId);
    return { workspaceId: access.workspaceId, scopeContextId: access.session?.context_id };
  }

  /** Only a question answered keeps the session alive: a refused one changes nothing. */
  private async leave(access: Access): Promise<void> {
    if (access.session) await this.deps.keepSessionAlive(access.session.id);
  }
}
