import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CancelledNotificationSchema,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { CoreServices } from '../services.js';

/**
 * A transport whose requests count as client activity from their arrival to their answer, as the HTTP server counts
 * its requests (src/http/server.ts): background enrichment then starts in the gaps between an agent's calls instead
 * of running whole batches under them. memd's MCP server on stdio, in process, serves its agent through no HTTP
 * server: without this, at a million memories with the enrichment backlog of an ingest, its recalls waited behind
 * batches of 32 (BENCHMARKS.md, "MCP on stdio and the backlog").
 */
export class ForegroundTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  /** Requests received and not yet answered (nor cancelled by the client, which then expects no answer). */
  private readonly open = new Set<RequestId>();

  constructor(
    private readonly inner: Transport,
    private readonly foreground: CoreServices['foreground'],
  ) {
    inner.onmessage = (message, extra) => {
      if (isJSONRPCRequest(message)) this.arrived(message.id);
      else {
        const cancelled = CancelledNotificationSchema.safeParse(message);
        if (cancelled.success) this.answered(cancelled.data.params.requestId);
      }
      this.onmessage?.(message, extra);
    };
    inner.onclose = () => {
      for (const id of [...this.open]) this.answered(id);
      this.onclose?.();
    };
    inner.onerror = (error) => this.onerror?.(error);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    try {
      await this.inner.send(message, options);
    } finally {
      if (isJSONRPCResponse(message) || isJSONRPCErrorResponse(message)) this.answered(message.id);
    }
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private arrived(id: RequestId): void {
    if (this.open.has(id)) return;
    this.open.add(id);
    this.foreground.begin();
  }

  private answered(id: RequestId | undefined): void {
    if (id === undefined || !this.open.delete(id)) return;
    this.foreground.end();
  }
}
