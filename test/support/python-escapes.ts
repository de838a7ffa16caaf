/**
 * Python that takes the sandbox's import fence out of the way every way it can from inside: the hook removed from
 * `sys.meta_path` and the standard finders put back, `__import__` replaced, the import caches cleared and the bridge
 * modules dropped from `sys.modules`. What a test imports after it must still fail.
 */
export const REMOVE_IMPORT_FENCE = `
import builtins, importlib, importlib.machinery, sys, zipimport
sys.meta_path[:] = [f for f in sys.meta_path if 'Fence' not in getattr(f, '__name__', type(f).__name__)]
sys.meta_path.extend(f for f in (importlib.machinery.BuiltinImporter, importlib.machinery.FrozenImporter, importlib.machinery.PathFinder) if f not in sys.meta_path)
builtins.__import__ = importlib.__import__
sys.path_importer_cache.clear()
zipimport._zip_directory_cache.clear()
importlib.invalidate_caches()
for name in [n for n in sys.modules if n.partition('.')[0] in ('pyodide', '_pyodide', 'js', 'pyodide_js')]:
    del sys.modules[name]
`;
