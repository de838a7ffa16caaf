import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { SandboxManager } from '../../src/sandbox/index.js';
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
    expect(await failing(`open(${JSON.stringify(join(dataDir, 'memd.sqlite'))}, 'rb').read()`)).toMatch(/FileNotFoundError/);
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
    expect(await failing(`import socket\nsocket.create_connection(('127.0.0.1', ${port}), timeout=2)`)).toMatch(/PermissionError/);
    expect(await failing(`import urllib.request\nurllib.request.urlopen('http://127.0.0.1:${port}/', timeout=2).read()`)).toMatch(/URLError|PermissionError/);
    expect(await failing(`import http.client\nc = http.client.HTTPConnection('127.0.0.1', ${port}, timeout=2)\nc.request('GET', '/')`)).toMatch(/PermissionError/);
    expect(await failing('import socket\nsocket.socket(socket.AF_INET, socket.SOCK_DGRAM)')).toMatch(/PermissionError/);
    expect(await failing("from pyodide.http import pyfetch\npyfetch('http://127.0.0.1/')")).toMatch(/ModuleNotFoundError: module 'pyodide' is not available/);
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

describe("Pyodide's JavaScript bridge", () => {
  test.each([
    ['import js', /ModuleNotFoundError: module 'js' is not available/],
    ['import pyodide_js', /ModuleNotFoundError: module 'pyodide_js' is not available/],
    ['from pyodide.ffi import to_js', /ModuleNotFoundError: module 'pyodide' is not available/],
    ["from pyodide.code import run_js\nrun_js('process')", /ModuleNotFoundError: module 'pyodide' is not available/],
    ['import _pyodide_core', /ModuleNotFoundError: module '_pyodide_core' is not available/],
    ['import ctypes', /ModuleNotFoundError: module 'ctypes' is not available/],
    ["__import__('js')", /ModuleNotFoundError/],
    ["import importlib\nimportlib.import_module('pyodide_js')", /ModuleNotFoundError/],
    ["import sys\nsys.modules['js']", /KeyError/],
    ["import importlib.util\nimportlib.util.find_spec('js')", /ModuleNotFoundError/],
    ["import _imp\nfrom importlib.machinery import ModuleSpec\n_imp.create_builtin(ModuleSpec('_pyodide_core', None))", /ModuleNotFoundError/],
  ])('%s fails', async (code, expected) => {
    expect(await failing(code)).toMatch(expected);
  });

  test('the only JavaScript objects left in reach are the two helpers, and they lead nowhere', async () => {
    const run = await manager.execute('escape', {
      code: `
import gc
found = {}
for holder in gc.get_objects():
    for ref in gc.get_referents(holder):
        if hasattr(type(ref), 'js_id') and hasattr(ref, 'constructor'):
            found[ref.js_id] = ref
names = sorted(str(ref.name) for ref in found.values())
attempts = {}
for ref in found.values():
    for route, attempt in {
        'Function constructor': lambda: ref.constructor('return process.pid')(),
        'constructor of constructor': lambda: ref.constructor.constructor('return process.pid')(),
        'Reflect-free new': lambda: ref.constructor.new('return process.pid')(),
        'prototype constructor': lambda: ref.prototype.constructor('return process.pid')(),
    }.items():
        try:
            attempts[f'{ref.name}: {route}'] = repr(attempt())
        except Exception as error:
            attempts[f'{ref.name}: {route}'] = 'blocked: ' + type(error).__name__
{'names': names, 'attempts': attempts}`,
    });
    expect(run.error).toBeNull();
    const { names, attempts } = JSON.parse(run.result!) as { names: string[]; attempts: Record<string, string> };
    expect(names).toEqual(['hostCall', 'sleep']);
    for (const [route, outcome] of Object.entries(attempts)) expect(outcome, route).toMatch(/^blocked: /);
  });

  test('walking __subclasses__ and function globals finds no JavaScript object but the helpers', async () => {
    const run = await manager.execute('escape', {
      code: `
def js_objects_in(values, found):
    for value in values:
        if hasattr(type(value), 'js_id'):
            found[value.js_id] = str(getattr(value, 'name', type(value).__name__))

found, classes, seen = {}, [object], set()
while classes:
    cls = classes.pop()
    if cls in seen:
        continue
    seen.add(cls)
    try:
        classes.extend(type.__subclasses__(cls))
        members = list(vars(cls).values())
    except Exception:
        continue
    js_objects_in(members, found)
    for member in members:
        function = getattr(member, '__func__', member)
        js_objects_in(list(getattr(function, '__globals__', {}).values()), found)
        js_objects_in([cell.cell_contents for cell in (getattr(function, '__closure__', None) or ()) if cell.cell_contents is not None], found)
{'classes': len(seen), 'found': sorted(found.values())}`,
    });
    expect(run.error).toBeNull();
    const { classes, found } = JSON.parse(run.result!) as { classes: number; found: string[] };
    expect(classes).toBeGreaterThan(500);
    expect(found.every((name) => name === 'hostCall' || name === 'sleep')).toBe(true);
  });

  test('even with the Python fence bypassed, JavaScript objects give no way to the host', async () => {
    // The default argument of the fence's own wrapper revives _pyodide_core: the Python layer is
    // best effort. What it yields must still be harmless.
    const run = await manager.execute('escape', {
      code: `
import _imp
from importlib.machinery import ModuleSpec
core = _imp.create_builtin.__defaults__[0](ModuleSpec('_pyodide_core', None))
obj = core.to_js({'a': 1})
outcomes = {}
for route, attempt in {
    'Function': lambda: obj.constructor.constructor('return process')(),
    'AsyncFunction via a proxy': lambda: core.to_js(lambda: 1).constructor.constructor('return process')(),
    'globalThis through a getter': lambda: obj.constructor.getOwnPropertyDescriptor(obj.constructor.prototype, '__proto__').get.call(None),
}.items():
    try:
        value = attempt()
        outcomes[route] = 'reached: ' + repr(value)[:60]
    except Exception as error:
        outcomes[route] = 'blocked: ' + type(error).__name__
outcomes`,
    });
    expect(run.error).toBeNull();
    for (const [route, outcome] of Object.entries(JSON.parse(run.result!) as Record<string, string>)) {
      expect(outcome, route).not.toMatch(/process|global/i);
    }
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
