import type { FromWorker } from './protocol.js';
import { SandboxWorker, startThread, type WorkerLimits } from './sandbox-worker.js';
import type { SandboxLogger } from './types.js';

/**
 * Loading Pyodide takes about 2.3 s when it boots Python and 0.36 s when it copies in the memory of a Python that has
 * already booted (Pyodide's memory snapshot); a new session's first execute, cold, about 1.9 s against 1.1 s
 * (NOTES.md, "Boot image"). So a process makes a boot image once per memory limit, in a worker that boots Python,
 * sends its memory and exits, and every sandbox after the first starts from that image. The image is taken before
 * anything of ours runs in the interpreter (runner, fence and lock-down are applied to each sandbox after it loads),
 * so it holds nothing of any session. It stays in memory (about 30 MB) for the life of the process.
 *
 * Pyodide marks its snapshot options internal: the version is pinned by package-lock.json, and test/sandbox covers
 * sandboxes started from an image. When no image can be made, or a sandbox fails to start from one, sandboxes boot
 * Python as before.
 */
const images = new Map<number, Promise<SharedArrayBuffer | undefined>>();

/**
 * A sandbox worker, from the boot image once there is one. The first start in a process boots Python while the image
 * is made beside it, so that it waits no longer than before images; every later start waits for the image.
 */
export async function startSandboxWorker(limits: WorkerLimits, logger: SandboxLogger): Promise<SandboxWorker> {
  const pending = images.get(limits.memoryLimitBytes);
  if (!pending) {
    images.set(limits.memoryLimitBytes, makeBootImageOrNone(limits, logger));
    return SandboxWorker.start(limits);
  }
  const image = await pending;
  if (!image) return SandboxWorker.start(limits);
  try {
    return await SandboxWorker.start(limits, image);
  } catch (error) {
    logger.warn({ error: String(error) }, 'a sandbox failed to start from the boot image; sandboxes now boot Python');
    images.set(limits.memoryLimitBytes, Promise.resolve(undefined));
    return SandboxWorker.start(limits);
  }
}

function makeBootImageOrNone(limits: WorkerLimits, logger: SandboxLogger): Promise<SharedArrayBuffer | undefined> {
  return makeBootImage(limits).catch((error: unknown) => {
    logger.warn({ error: String(error) }, 'no sandbox boot image; sandboxes boot Python');
    return undefined;
  });
}

function makeBootImage(limits: WorkerLimits): Promise<SharedArrayBuffer> {
  const { worker, hostReplies } = startThread(limits, { purpose: 'boot_image' });
  hostReplies.close();
  let timer: NodeJS.Timeout | undefined;
  return new Promise<SharedArrayBuffer>((resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no boot image within ${limits.startupTimeoutMs} ms`)),
      limits.startupTimeoutMs,
    );
    worker.on('message', (message: FromWorker) => {
      if (message.kind === 'boot_image') {
        // Shared, so that each sandbox's worker reads the one copy instead of receiving its own.
        const shared = new SharedArrayBuffer(message.data.byteLength);
        new Uint8Array(shared).set(message.data);
        resolve(shared);
      } else if (message.kind === 'startup_failed') {
        reject(new Error(message.message));
      }
    });
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`the boot image worker exited with code ${code}`)));
  }).finally(() => {
    clearTimeout(timer);
    void worker.terminate();
  });
}
