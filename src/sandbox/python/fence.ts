/**
 * The Python layer of the isolation: user code must not reach Pyodide's bridge to JavaScript.
 * Python cannot truly hide an object from code running in the same interpreter (frames, closures
 * and gc reach everything), so this layer closes the ordinary routes and the JavaScript lockdown
 * in `lockdown.ts` is what must hold when this one is bypassed.
 *
 * The source only defines `install_fence`; the worker calls it directly, because it empties the
 * Pyodide modules that `runPython` itself runs in.
 */
export const FENCE_SOURCE = String.raw`
import sys, types, _imp

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


def install_fence():
    sys.meta_path[:] = [SandboxImportFence] + [finder for finder in sys.meta_path if not from_pyodide(finder)]
    _imp.create_builtin = create_builtin
    for name in [name for name in sys.modules if is_bridge(name)]:
        module = sys.modules.pop(name)
        # Pyodide's own modules keep JavaScript proxies in their globals; nothing of theirs runs
        # after start-up, so emptying them takes those proxies out of reach (gc, __globals__).
        if isinstance(module, types.ModuleType) and name != '_pyodide_core':
            vars(module).clear()
`;
