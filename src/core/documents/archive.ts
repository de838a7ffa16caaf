import yauzl from 'yauzl';
import { IngestionProblem } from './extract.js';

const corrupt = (error: unknown) =>
  new IngestionProblem('corrupt_document', `not a readable Word document: ${(error as Error).message}`);

/**
 * A Word document is a zip archive, and a 1 MB archive can hold an entry that inflates to gigabytes (the parser
 * would hold all of it at once). Before the parser sees one, every entry is inflated here as a stream and
 * discarded: the sizes the archive declares must add up to at most `maxBytes`, and no entry may inflate beyond what
 * it declares (yauzl stops the stream at the first byte too many), so at most `maxBytes` are ever inflated and only a
 * chunk at a time is held.
 */
export async function assertExpandsWithin(bytes: Uint8Array, maxBytes: number): Promise<void> {
  let archive: yauzl.ZipFile;
  try {
    archive = await yauzl.fromBufferPromise(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      lazyEntries: true,
      validateEntrySizes: true,
    });
  } catch (error) {
    throw corrupt(error);
  }
  try {
    const entries: yauzl.Entry[] = [];
    let declared = 0;
    for await (const entry of archive.eachEntry()) {
      declared += entry.uncompressedSize;
      if (declared > maxBytes) {
        throw new IngestionProblem(
          'document_too_large',
          `the document decompresses to more than ${maxBytes} bytes (MEMD_DOCUMENT_MAX_EXPANDED_BYTES)`,
        );
      }
      entries.push(entry);
    }
    for (const entry of entries) {
      if (entry.fileName.endsWith('/')) continue;
      try {
        for await (const _chunk of await archive.openReadStreamPromise(entry)) void _chunk;
      } catch (error) {
        if (/too many bytes/i.test((error as Error).message)) {
          throw new IngestionProblem(
            'document_too_large',
            `'${entry.fileName}' decompresses to more than the archive declares for it (a decompression bomb)`,
          );
        }
        throw corrupt(error);
      }
    }
  } catch (error) {
    throw error instanceof IngestionProblem ? error : corrupt(error);
  } finally {
    archive.close();
  }
}
