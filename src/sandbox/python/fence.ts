/**
 * The Python layer of the isolation: user code must not reach Pyodide's bridge to JavaScript.
 *
 * Python cannot hide an object from code in the same interpreter that holds a path to it, so the
 * fence removes the paths: the bridge modules leave `sys.modules` and are emptied, other modules'
 * references to them go (Pyodide's `__main__` holds `_pyodide_core`), the interpreter's ways to
 * build a module again (`_imp.create_builtin`, `_imp.create_dynamic`) only hand out modules already
 * loaded, and `gc` loses the functions that list every object alive (`get_objects`, `get_referrers`,
 * `get_referents`) or keep collected ones (`set_debug`). What remains in reach is checked by the
 * isolation tests, which walk everything reachable. The JavaScript lockdown in `lockdown.ts` stays
 * the second layer, for what a route the fence missed could still create.
 *
 * The fence does not rest on its import hook: Python code can remove a finder from `sys.meta_path`
 * or replace `builtins.__import__`. What holds by construction is that nothing is left to import:
 * the bridge modules are out of `sys.modules`, their loaders are emptied, the built-ins cannot be
 * created again, and their sources are erased from the standard library archive before the fence
 * runs (`stdlib-archive.ts`; the fence then clears what the import system had read of it). The
 * hook only gives the refusal its message.
 *
 * The source only defines `install_fence`; the worker calls it directly, because it empties the
 * Pyodide modules that `runPython` itself runs in. Everything the fence leaves behind (the import
 * hook, the two wrappers) is a closure: the namespace the source ran in is emptied at the end.
 */

/** Pyodide's bridge to JavaScript and what reaches below Python: no module of theirs exists in a sandbox. */
export const BRIDGE_MODULES = [
  'js',
  'pyodide_js',
  'pyodide',
  '_pyodide',
  '_pyodide_core',
  'ctypes',
  '_ctypes',
  'micropip',
] as const;

export const FENCE_SOURCE = String.raw`
def install_fence(*allowed):
    import gc, importlib, sys, types, weakref, zipimport, _imp

    bridge_modules = frozenset(${JSON.stringify(BRIDGE_MODULES)})
    # Built into the interpreter, of no use in a sandbox, and reaching below Python: raw memory and
    # interpreter internals (the test modules), processes, debuggers.
    below_python = frozenset({'_posixsubprocess', '_remote_debugging', 'faulthandler', 'xxsubtype', '_xxtestfuzz'})
    gc_introspection = ('get_objects', 'get_referrers', 'get_referents', 'set_debug')

    def is_bridge(name):
        return name.partition('.')[0] in bridge_modules

    def unavailable(name):
        top = name.partition('.')[0]
        return top in bridge_modules or top in below_python or top.startswith('_test')

    def refuse(name):
        return ModuleNotFoundError(f"module '{name}' is not available in the sandbox", name=name)

    class SandboxImportFence:
        """First on sys.meta_path, so it is asked before the importers that would find these."""

        @staticmethod
        def find_spec(name, path=None, target=None):
            if unavailable(name):
                raise refuse(name)
            return None

    def from_pyodide(obj):
        return (getattr(type(obj), '__module__', '') or '').startswith('_pyodide') or \
            (getattr(obj, '__module__', '') or '').startswith('_pyodide')

    def bridge_object(value):
        """A bridge module, a function of one, or a class or object defined in one."""
        try:
            if isinstance(value, types.ModuleType):
                name = vars(value).get('__name__')
                return not isinstance(name, str) or is_bridge(name)
            owner = getattr(value, '__self__', None) if isinstance(value, types.BuiltinFunctionType) else None
            if isinstance(owner, types.ModuleType):
                return bridge_object(owner)
            module = value.__module__ if isinstance(value, (type, types.FunctionType, types.BuiltinFunctionType)) else type(value).__module__
            return isinstance(module, str) and is_bridge(module)
        except Exception:
            return False

    # Every built-in module a sandbox may use is loaded now, so that the wrappers below can hand out
    # these and need no way to build another.
    for name in sys.builtin_module_names:
        if not unavailable(name) and name not in sys.modules:
            importlib.import_module(name)
    loaded = {name: sys.modules[name] for name in sys.builtin_module_names if name in sys.modules and not unavailable(name)}

    def create_builtin(spec):
        module = loaded.get(spec.name)
        if module is None:
            raise refuse(spec.name)
        return module

    def create_dynamic(spec, file=None):
        # No extension module exists in the sandbox's filesystem; this would only revive built-ins.
        raise refuse(spec.name)

    originals = [weakref.ref(_imp.create_builtin), weakref.ref(_imp.create_dynamic)]
    _imp.create_builtin, _imp.create_dynamic = create_builtin, create_dynamic

    sys.meta_path[:] = [SandboxImportFence] + [finder for finder in sys.meta_path if not from_pyodide(finder)]
    # The archive lost the bridge packages' sources; what was read of it before must not remember them.
    zipimport._zip_directory_cache.clear()
    sys.path_importer_cache.clear()
    importlib.invalidate_caches()
    for name in [name for name in sys.modules if unavailable(name)]:
        module = sys.modules.pop(name)
        # Pyodide's own modules keep JavaScript proxies in their globals; nothing of theirs runs
        # after start-up, so emptying them takes those proxies out of reach.
        if is_bridge(name) and isinstance(module, types.ModuleType) and name != '_pyodide_core':
            vars(module).clear()
    # Other modules' references to the bridge (Pyodide's __main__ imports _pyodide_core, its
    # excepthook and event loop policy come from its modules). sys hooks get back their originals.
    for module in [*sys.modules.values(), sys.modules['builtins']]:
        namespace = vars(module) if isinstance(module, types.ModuleType) else {}
        for key, value in list(namespace.items()):
            if bridge_object(value):
                namespace[key] = getattr(sys, f'__{key}__', None) if module is sys else None
    # The import hook's loaders outlive their modules (module specs keep them) and hold the
    # JavaScript objects they were made for, Pyodide's internal API among them.
    for obj in gc.get_objects():
        if from_pyodide(obj) and type(obj).__name__ in ('JsFinder', 'JsLoader'):
            vars(obj).clear()

    js_proxy_type = next(cls for cls in type(allowed[0]).__mro__ if cls.__name__ == 'JsProxy')
    allowed_ids = {proxy.js_id for proxy in allowed}
    found = {}
    for holder in gc.get_objects():
        for ref in gc.get_referents(holder):
            if isinstance(ref, js_proxy_type) and getattr(ref, 'js_id', None) not in allowed_ids and type(ref).__name__ != 'JsNull':
                found[id(ref)] = type(ref).__name__
    holder = ref = None
    if found:
        raise RuntimeError(f'sandbox: JavaScript objects are still reachable from Python: {sorted(found.values())}')

    removed = [weakref.ref(vars(gc).pop(name)) for name in gc_introspection]
    gc.collect()
    alive = [ref() for ref in originals + removed if ref() is not None]
    if alive:
        raise RuntimeError(f'sandbox: functions the fence removed are still alive: {alive}')
    globals().clear()
`;
