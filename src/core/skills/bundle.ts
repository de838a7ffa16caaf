import { pipeline, type Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { pack } from 'tar-stream';
import type { SkillFile } from '../../storage/types.js';

/**
 * A skill as a gzipped tar (ustar, long paths as PAX): every file under `<skill name>/`, so `tar xz` makes the
 * skill's folder. Files are read one at a time as the client takes them.
 */
export function bundleArchive(folder: string, files: AsyncIterable<SkillFile>): Readable {
  const archive = pack();
  const write = (file: SkillFile) =>
    new Promise<void>((resolve, reject) =>
      archive.entry(
        { name: `${folder}/${file.path}`, size: file.size, mtime: new Date(file.updated_at), mode: 0o644 },
        file.content,
        (error) => (error ? reject(error) : resolve()),
      ),
    );
  void (async () => {
    try {
      for await (const file of files) await write(file);
      archive.finalize();
    } catch (error) {
      archive.destroy(error as Error);
    }
  })();
  return pipeline(archive, createGzip(), () => undefined);
}
