import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package's root: the first directory above this module with a package.json. Modules run from `src/` (tsx) and
 * from `dist/src/` (built), at different depths; what ships beside them (the explorer's build, `assets/`) is found
 * from here.
 */
function packageRoot(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(directory, 'package.json'))) {
    const parent = dirname(directory);
    if (parent === directory) throw new Error('no package.json above the server module');
    directory = parent;
  }
  return directory;
}

export const PACKAGE_ROOT = packageRoot();
