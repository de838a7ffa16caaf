import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { SandboxManager } from '../../src/sandbox/index.js';
import { REMOVE_IMPORT_FENCE } from '../support/python-escapes.js';
import { createManager } from './support.js';

let manager: SandboxManager;
let dataDir: string;
let server: Server;
let port: number;
let connections = 0;

beforeAll(async () => {
  process.env.MEMD_ISOLATION_SECRET = 'host-secret';
  dataDir = await mkdtemp(join(tmpdir(), 'memd-sandbox-'));
  await writeFile(join(dataDir, 'memd.sqlite'), 'database bytes');
  server = createServer((socket) => {
    connections += 1;
    socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
  ({ manager } = createManager());
  await manager.warmUp();
  // Only a process's first sandbox boots Python (boot-image.test.ts checks it is fenced too); every later one starts
  // from the boot image, so the sessions below do.
  await manager.execute('first', { code: '1' });
});

afterAll(async () => {
  await manager.close();
  await new Promise((resolve) => server.close(resolve));
  await rm(dataDir, { recursive: true, force: true });
  delete process.env.MEMD_ISOLATION_SECRET;
});

/** Runs code that must fail; returns its error text. */
async function failing(code: string, session = 'escape'): Promise<string> {
  const run = await manager.execute(session, { code });
  expect(run.error, `expected an error from: ${code}\noutput: ${run.output}\nresult: ${run.result}`).not.toBeNull();
  return run.error!;
}

describe('filesystem', () => {
  test('host files cannot be read', async () => {
    expect(await failing("open('/etc/hostname').read()")).toMatch(/FileNotFoundError/);
    expect(await failing("open('/etc/passwd').read()")).toMatch(/FileNotFoundError/);
    expect(await failing(`open(${JSON.stringify(join(dataDir, 'memd.sqlite'))}, 'rb').read()`)).toMatch(
      /FileNotFoundError/,
    );
    expect(await failing(`import os\nos.listdir(${JSON.stringify(dataDir)})`)).toMatch(/FileNotFoundError/);
  });

  test('the filesystem the sandbox sees is its own, in memory', async () => {
    const run = await manager.execute('escape', { code: "import os\nsorted(os.listdir('/'))" });
    expect(JSON.parse(run.result!)).toEqual(['dev', 'home', 'lib', 'proc', 'tmp']);
  });

  test('the host environment is not visible', async () => {
    const run = await manager.execute('escape', { code: "import os\nos.environ.get('MEMD_ISOLATION_SECRET')" });
    expect(run).toMatchObject({ error: null, result: null });
  });
});

describe('network', () => {
  test('sockets, HTTP clients and the JS fetch bridge all fail, and nothing reaches the port', async () => {
    expect(await failing(`import socket\nsocket.create_connection(('127.0.0.1', ${port}), timeout=2)`)).toMatch(
      /PermissionError/,
    );
    expect(
      await failing(`import urllib.request\nurllib.request.urlopen('http://127.0.0.1:${port}/', timeout=2).read()`),
    ).toMatch(/URLError|PermissionError/);
    expect(
      await failing(
        `import http.client\nc = http.client.HTTPConnection('127.0.0.1', ${port}, timeout=2)\nc.request('GET', '/')`,
      ),
    ).toMatch(/PermissionError/);
    expect(await failing('import socket\nsocket.socket(socket.AF_INET, socket.SOCK_DGRAM)')).toMatch(/PermissionError/);
    expect(await failing("from pyodide.http import pyfetch\npyfetch('http://127.0.0.1/')")).toMatch(
      /ModuleNotFoundError: module 'pyodide' is not available/,
    );
    expect(connections).toBe(0);
  });
});

describe('processes', () => {
  test('os.system and subprocess start nothing on the host', async () => {
    const marker = join(dataDir, 'spawned');
    const run = await manager.execute('escape', { code: `import os\nos.system('touch ${marker}')` });
    expect(run.result).toBe('-1');
    expect(await failing(`import subprocess\nsubprocess.run(['touch', ${JSON.stringify(marker)}])`)).toMatch(/Error/);
    await expect(import('node:fs/promises').then((fs) => fs.stat(marker))).rejects.toThrow(/ENOENT/);
  });
});

/**
 * Everything user code can reach without gc: from the modules, builtins, its own frames and every
 * class, through attributes, globals, closures, defaults, bound owners and containers. Reports what
 * leads back to the bridge (modules and functions of Pyodide, gc's object listings, the interpreter's
 * module constructors, JavaScript objects) with the path that reaches it.
 */
const REACHABILITY_WALK = `
import builtins, sys, types
WATCHED = {'get_objects', 'get_referents', 'get_referrers', 'set_debug', 'create_builtin', 'create_dynamic',
           'to_js', 'create_proxy', 'run_js', 'create_once_callable', 'run_sync', 'destroy_proxies'}
def module_name(module):
    name = vars(module).get('__name__')
    return name if isinstance(name, str) else '<emptied>'
def bridge_name(name):
    return name == '<emptied>' or name.partition('.')[0] in ('js', 'pyodide_js', 'pyodide', '_pyodide', '_pyodide_core')
roots = [sys.modules, builtins, object]
frame = sys._getframe()
while frame is not None:
    roots.append(frame)
    frame = frame.f_back
seen, found, js_objects = set(), {}, {}
stack = [(root, f'root {index}') for index, root in enumerate(roots)]
while stack:
    obj, path = stack.pop()
    if id(obj) in seen:
        continue
    seen.add(id(obj))
    if hasattr(type(obj), 'js_id') and type(obj).__name__ != 'JsNull':
        js_objects[str(getattr(obj, 'name', type(obj).__name__))] = path
    if isinstance(obj, types.ModuleType) and bridge_name(module_name(obj)):
        found.setdefault('module ' + module_name(obj), path)
    if isinstance(obj, types.BuiltinFunctionType) and isinstance(obj.__self__, types.ModuleType):
        owner = module_name(obj.__self__)
        if bridge_name(owner) or obj.__name__ in WATCHED:
            found.setdefault(owner + '.' + obj.__name__, path)
    if isinstance(obj, dict):
        stack.extend((value, f'{path}[{key!r}]') for key, value in list(obj.items()))
    elif isinstance(obj, (list, tuple, set, frozenset)):
        stack.extend((value, f'{path}[{index}]') for index, value in enumerate(list(obj)))
    elif not isinstance(obj, (str, bytes, int, float, type(None))):
        for attr in ('__dict__', '__globals__', '__closure__', '__defaults__', '__kwdefaults__', '__self__', '__func__',
                     '__wrapped__', '__mro__', 'f_globals', 'f_locals', 'f_back', 'cell_contents', '__objclass__',
                     'fget', 'fset', 'fdel', 'func', 'args', 'keywords', '__spec__', '__loader__', 'loader', '__builtins__'):
            try:
                stack.append((getattr(obj, attr), f'{path}.{attr}'))
            except Exception:
                pass
        if isinstance(obj, type):
            try:
                stack.extend((cls, f'{path}.__subclasses__:{cls.__name__}') for cls in type.__subclasses__(obj))
            except TypeError:
                pass
{'objects': len(seen), 'found': found, 'js_objects': sorted(js_objects)}`;

describe("Pyodide's JavaScript bridge", () => {
  test.each([
    ['import js', /ModuleNotFoundError: module 'js' is not available/],
    ['import pyodide_js', /ModuleNotFoundError: module 'pyodide_js' is not available/],
    ['from pyodide.ffi import to_js', /ModuleNotFoundError: module 'pyodide' is not available/],
    ["from pyodide.code import run_js\nrun_js('process')", /ModuleNotFoundError: module 'pyodide' is not available/],
    ['import _pyodide_core', /ModuleNotFoundError: module '_pyodide_core' is not available/],
    ['import ctypes', /ModuleNotFoundError: module 'ctypes' is not available/],
    ['import _testinternalcapi', /ModuleNotFoundError: module '_testinternalcapi' is not available/],
    ["__import__('js')", /ModuleNotFoundError/],
    ["import importlib\nimportlib.import_module('pyodide_js')", /ModuleNotFoundError/],
    ["import sys\nsys.modules['js']", /KeyError/],
    ["import importlib.util\nimportlib.util.find_spec('js')", /ModuleNotFoundError/],
    // The interpreter's own ways to build a module again hand out loaded modules only.
    [
      "import _imp\nfrom importlib.machinery import ModuleSpec\n_imp.create_builtin(ModuleSpec('_pyodide_core', None))",
      /ModuleNotFoundError/,
    ],
    [
      "import _imp\nfrom importlib.machinery import ModuleSpec\n_imp.create_dynamic(ModuleSpec('_pyodide_core', None, origin='_pyodide_core'))",
      /ModuleNotFoundError/,
    ],
    // Pyodide's __main__ imported the core module; gc could list every object alive.
    ['import __main__\n__main__._pyodide_core.to_js', /AttributeError: 'NoneType' object has no attribute 'to_js'/],
    ['import gc\ngc.get_objects()', /AttributeError: module 'gc' has no attribute 'get_objects'/],
    ['import gc\ngc.get_referents(gc)', /AttributeError/],
    [
      "import gc, _imp\nfrom importlib.machinery import ModuleSpec\n_imp.create_builtin(ModuleSpec('gc', None)).get_referrers",
      /AttributeError/,
    ],
  ])('%s fails', async (code, expected) => {
    expect(await failing(code)).toMatch(expected);
  });

  test('gc still collects, and what the standard library needs of it works', async () => {
    const run = await manager.execute('escape', {
      code: "import gc, timeit\ngc.disable()\ngc.enable()\nisinstance(gc.collect(), int), gc.isenabled(), timeit.timeit('1 + 1', number=10) > 0",
    });
    expect(run).toMatchObject({ error: null, result: '[true, true, true]' });
  });

  test('nothing reachable leads to the bridge; the only JavaScript objects are the two helpers', async () => {
    const run = await manager.execute('escape', { code: REACHABILITY_WALK });
    expect(run.error).toBeNull();
    const walk = JSON.parse(run.result!) as { objects: number; found: Record<string, string>; js_objects: string[] };
    expect(walk.objects).toBeGreaterThan(10_000);
    expect(walk.found).toEqual({});
    expect(walk.js_objects).toEqual(['hostCall', 'sleep']);
  });

  test('the two helpers lead nowhere in JavaScript', async () => {
    const run = await manager.execute('escape', {
      code: `
helpers = {}
def walk(value, depth=0):
    if hasattr(type(value), 'js_id'):
        helpers[str(value.name)] = value
    elif depth < 3 and hasattr(value, '__closure__'):
        for cell in value.__closure__ or ():
            walk(cell.cell_contents, depth + 1)
for helper in (llm_query, recall):
    walk(helper)
import time
walk(time.sleep)
attempts = {}
for name, ref in helpers.items():
    for route, attempt in {
        'Function constructor': lambda: ref.constructor('return process.pid')(),
        'constructor of constructor': lambda: ref.constructor.constructor('return process.pid')(),
        'Reflect-free new': lambda: ref.constructor.new('return process.pid')(),
        'prototype constructor': lambda: ref.prototype.constructor('return process.pid')(),
        'globalThis through a getter': lambda: ref.constructor.getOwnPropertyDescriptor(ref.constructor.prototype, '__proto__').get.call(None),
    }.items():
        try:
            attempts[f'{name}: {route}'] = 'reached: ' + repr(attempt())[:60]
        except Exception as error:
            attempts[f'{name}: {route}'] = 'blocked: ' + type(error).__name__
{'helpers': sorted(helpers), 'attempts': attempts}`,
    });
    expect(run.error).toBeNull();
    const { helpers, attempts } = JSON.parse(run.result!) as { helpers: string[]; attempts: Record<string, string> };
    expect(helpers).toEqual(['hostCall', 'sleep']);
    for (const [route, outcome] of Object.entries(attempts)) expect(outcome, route).toMatch(/^blocked: /);
  });
});

describe('the import fence holds when Python takes it apart', () => {
  test('with the hook removed, the import caches cleared and __import__ replaced, no bridge module can be imported again', async () => {
    const attempts = [
      'import pyodide',
      'import pyodide.ffi',
      'from pyodide.ffi import to_js',
      "importlib.import_module('pyodide.code')",
      'import _pyodide._base',
      'import js',
      'import pyodide_js',
      'import ctypes',
    ];
    const run = await manager.execute('unfenced', {
      code: `${REMOVE_IMPORT_FENCE}
outcomes = {}
for attempt in ${JSON.stringify(attempts)}:
    try:
        exec(attempt, {'importlib': importlib})
        outcomes[attempt] = 'imported'
    except ImportError as error:
        outcomes[attempt] = f'{type(error).__name__}: {error}'
outcomes`,
    });
    expect(run.error).toBeNull();
    const outcomes = JSON.parse(run.result!) as Record<string, string>;
    expect(Object.keys(outcomes)).toEqual(attempts);
    for (const [attempt, outcome] of Object.entries(outcomes))
      expect(outcome, attempt).toMatch(
        /^ModuleNotFoundError: No module named '(pyodide|_pyodide|js|pyodide_js|_?ctypes)'$/,
      );
  });

  test('the sources are gone from the standard library archive, which still serves the rest of the library', async () => {
    const run = await manager.execute('unfenced', {
      code: `import zipfile
archive = next(p for p in sys.path if p.endswith('.zip'))
names = zipfile.ZipFile(archive).namelist()
import statistics, fractions, csv, xml.etree.ElementTree, email.mime.text
{
  'bridge_entries': [n for n in names if n.partition('/')[0] in ('pyodide', '_pyodide', 'ctypes', 'micropip')],
  'archive_spec': str(zipimport.zipimporter(archive + '/').find_spec('pyodide')),
  'path_spec': str(importlib.machinery.PathFinder.find_spec('pyodide')),
  'stdlib_entries': len(names) > 400,
  'median': statistics.median([3, 1, 2]),
}`,
    });
    expect(run.error).toBeNull();
    expect(JSON.parse(run.result!)).toEqual({
      bridge_entries: [],
      archive_spec: 'None',
      path_spec: 'None',
      stdlib_entries: true,
      median: 2,
    });
  });
});

describe('sessions', () => {
  test("one session cannot see another's variables", async () => {
    await manager.execute('alice', { code: "secret = 'alice only'" });
    expect(await failing('secret', 'bob')).toMatch(/NameError/);
    const bob = await manager.execute('bob', { code: "[name for name in globals() if not name.startswith('__')]" });
    expect(JSON.parse(bob.result!)).not.toContain('secret');
    expect((await manager.execute('alice', { code: 'secret' })).result).toBe('alice only');
  });

  test('host helpers answer for their own session only', async () => {
    expect((await manager.execute('alice', { code: "recall('x')[0]['session']" })).result).toBe('alice');
    expect((await manager.execute('bob', { code: "recall('x')[0]['session']" })).result).toBe('bob');
  });
});
