import type { MemdClient } from 'memd-client';
import { createClient, storedKey } from './api';
import type { ImportReport } from './types';

/** Bytes or items done of a total (undefined while the total is unknown). */
export interface Progress {
  done: number;
  total: number | undefined;
}

/**
 * A `fetch` for the client that reports upload progress. Browsers report the progress of an upload only to
 * XMLHttpRequest, and Chrome sends a streamed fetch body only over HTTP/2, which memd does not speak; so the body
 * (a file's stream) is read into a Blob here and sent with a known length.
 */
function fetchWithUploadProgress(onProgress: (progress: Progress) => void): typeof fetch {
  return async (input, init = {}) => {
    const body = init.body instanceof ReadableStream ? await new Response(init.body).blob() : (init.body ?? null);
    return new Promise<Response>((resolve, reject) => {
      const request = new XMLHttpRequest();
      request.open(init.method ?? 'GET', String(input));
      new Headers(init.headers).forEach((value, name) => {
        request.setRequestHeader(name, value);
      });
      request.responseType = 'blob';
      request.upload.onprogress = (event) =>
        onProgress({ done: event.loaded, total: event.lengthComputable ? event.total : undefined });
      request.onload = () => {
        const headers = new Headers();
        for (const line of request.getAllResponseHeaders().trim().split(/\r?\n/)) {
          const at = line.indexOf(':');
          if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
        }
        resolve(
          new Response(request.status === 204 ? null : (request.response as Blob), { status: request.status, headers }),
        );
      };
      request.onerror = () => reject(new TypeError('network error'));
      request.onabort = () => reject(new DOMException('aborted', 'AbortError'));
      init.signal?.addEventListener('abort', () => request.abort(), { once: true });
      request.send(body as XMLHttpRequestBodyInit | null);
    });
  };
}

/** Imports an export file (NDJSON) into the workspace through the client, reporting the bytes sent. */
export async function importFile(
  workspaceId: string,
  file: File,
  onProgress: (progress: Progress) => void,
): Promise<ImportReport> {
  // A large file takes its time; a streamed body is never resent by the client.
  const uploading = createClient(storedKey.get(), { fetch: fetchWithUploadProgress(onProgress), timeoutMs: 600_000 });
  return uploading.workspaces.import(workspaceId, file.stream());
}

/** Reads the workspace's export line by line and saves it as a file, reporting the memories read. */
export async function exportToFile(
  memd: MemdClient,
  workspaceId: string,
  onProgress: (progress: Progress) => void,
  signal?: AbortSignal,
): Promise<void> {
  const lines: string[] = [];
  let total: number | undefined;
  let memories = 0;
  for await (const line of memd.workspaces.export(workspaceId, undefined, signal ? { signal } : {})) {
    lines.push(JSON.stringify(line));
    if (line.type === 'header') total = line.total_memories;
    if (line.type === 'memory' && ++memories % 200 === 0) onProgress({ done: memories, total });
  }
  onProgress({ done: memories, total: total ?? memories });
  const url = URL.createObjectURL(new Blob([`${lines.join('\n')}\n`], { type: 'application/x-ndjson' }));
  const link = Object.assign(document.createElement('a'), { href: url, download: `${workspaceId}.ndjson` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
