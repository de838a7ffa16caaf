/**
 * The Python layer of the isolation: user code must not reach Pyodide's bridge to JavaScript.
 * Python cannot truly hide an object from code running in the same interpreter (frames, closures
 * and gc reach everything), so this layer closes the ordinary routes, checks that no JavaScript
 * object but the worker's own two functions is left in reach, and relies on the JavaScript
 * lockdown in `lockdown.ts` for what a determined bypass could still create.
 *
 * The source only defines `install_fence`; the worker calls it directly, because it empties the
 * Pyodide modules that `runPython` itself runs in.
 */
export const FENCE_SOURCE = String.raw`
import gc, sys, types, _imp

BRIDGE_MODULES = frozenset({'js', 'pyodide_js', 'pyodide', '_pyodide', '_pyodide_core', 'ctypes', '_ctypes', 'micropip'})


def is_bridge(name):
    return name.partition('.')[0] in BRIDGE_MODULES


class SandboxImportFence:
    """First on sys.meta_path, so it is asked before the importers that would find these."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if is_bridge(name):
            raise ModuleNotFoundError(f"module '{name}' is not available in the sandbox", name=name)
        return None


def create_builtin(spec, _create=_imp.create_builtin):
    # importlib builds builtin modules through this; a hand-made spec must not revive the bridge.
    if is_bridge(spec.name):
        raise ModuleNotFoundError(f"module '{spec.name}' is not available in the sandbox", name=spec.name)
    return _create(spec)


def from_pyodide(obj):
    return (getattr(type(obj), '__module__', '') or '').startswith('_pyodide') or \
        (getattr(obj, '__module__', '') or '').startswith('_pyodide')


def reachable_js_objects(js_proxy_type):
    found = {}
    for holder in gc.get_objects():
        for ref in gc.get_referents(holder):
            if isinstance(ref, js_proxy_type):
                found[id(ref)] = ref
    return found.values()


def install_fence(*allowed):
    sys.meta_path[:] = [SandboxImportFence] + [finder for finder in sys.meta_path if not from_pyodide(finder)]
    _imp.create_builtin = create_builtin
    for name in [name for name in sys.modules if is_bridge(name)]:
        module = sys.modules.pop(name)
        # Pyodide's own modules keep JavaScript proxies in their globals; nothing of theirs runs
        # after start-up, so emptying them takes those proxies out of reach.
        if isinstance(module, types.ModuleType) and name != '_pyodide_core':
            vars(module).clear()
    # The import hook's loaders outlive their modules (module specs keep them) and hold the
    # JavaScript objects they were made for, Pyodide's internal API among them.
    for obj in gc.get_objects():
        if from_pyodide(obj) and type(obj).__name__ in ('JsFinder', 'JsLoader'):
            vars(obj).clear()
    js_proxy_type = next(cls for cls in type(allowed[0]).__mro__ if cls.__name__ == 'JsProxy')
    allowed_ids = {proxy.js_id for proxy in allowed}
    left = [ref for ref in reachable_js_objects(js_proxy_type)
            if getattr(ref, 'js_id', None) not in allowed_ids and type(ref).__name__ != 'JsNull']
    if left:
        raise RuntimeError(f'sandbox: JavaScript objects are still reachable from Python: {[type(ref).__name__ for ref in left]}')
`;
