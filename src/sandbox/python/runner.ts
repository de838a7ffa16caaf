/**
 * The Python half of a sandbox: the user's namespace and every operation the worker performs on it.
 * It runs once per interpreter, before any user code, in a private namespace (not the user's).
 * Every entry point returns JSON text so that no Python object crosses into JavaScript as a proxy;
 * only `snapshot` hands back raw bytes.
 */
export const RUNNER_SOURCE = String.raw`
import ast, builtins, io, json, keyword, linecache, pickle, sys, time, traceback, types

user_ns = {'__name__': '__sandbox__', '__builtins__': builtins}
helpers = {}
cell_count = 0
SIZE_WALK_LIMIT = 100_000


class MemoryReserve:
    """Headroom held back from user code. It is released when memory runs out, so the error can be
    reported and the next call can run (and free something); a call that did not run out takes it
    back, if there is room."""

    def __init__(self, size):
        self.size, self.block, self.just_released = size, None, False

    def release(self):
        self.block, self.just_released = None, True

    def settle(self):
        if self.just_released:
            self.just_released = False
        elif self.block is None:
            try:
                self.block = bytearray(self.size)
            except MemoryError:
                pass


memory_reserve = MemoryReserve(4 * 2**20)


class SandboxHostError(RuntimeError):
    """The host (memory service) could not answer a helper call."""


class OperationError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def install_host_functions(host_call, host_sleep):
    """Wires in the worker's JavaScript functions. Sleeping happens there too: a sleep in C cannot
    be interrupted (and Pyodide's own wrapper lives in a module the fence empties)."""
    def sleep(seconds):
        seconds = float(seconds)
        if seconds < 0:
            raise ValueError('sleep length must be non-negative')
        if host_sleep(seconds):
            raise KeyboardInterrupt

    time.sleep = sleep
    install_helpers(host_call)


def install_helpers(host_call):
    def call_host(kind, args):
        reply = json.loads(host_call(kind, json.dumps(args)))
        if reply.get('interrupted'):
            raise KeyboardInterrupt
        if 'error' in reply:
            raise SandboxHostError(reply['error'])
        return reply['value']

    def llm_query(prompt):
        """Ask the service's language model; returns its answer as a string."""
        if not isinstance(prompt, str):
            raise TypeError('llm_query(prompt) needs a string')
        return call_host('llm_query', {'prompt': prompt})

    def recall(query, limit=10):
        """Search this session's memories; returns a list of dicts."""
        if not isinstance(query, str):
            raise TypeError('recall(query, limit) needs a string query')
        if not 1 <= int(limit) <= 500:
            raise ValueError('recall limit must be between 1 and 500')
        return call_host('recall', {'query': query, 'limit': int(limit)})

    helpers.update(llm_query=llm_query, recall=recall)
    user_ns.update(helpers)


class CappedOutput(io.TextIOBase):
    """stdout and stderr of one call, kept up to a size; the rest is counted, not stored."""

    def __init__(self, limit):
        self.parts, self.kept, self.dropped, self.limit = [], 0, 0, limit

    def writable(self):
        return True

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f'write() argument must be str, not {type(text).__name__}')
        room = max(self.limit - self.kept, 0)
        if room:
            self.parts.append(text[:room])
            self.kept += min(room, len(text))
        self.dropped += max(len(text) - room, 0)
        return len(text)

    def text(self):
        return truncate(''.join(self.parts), self.limit, self.kept + self.dropped)


def truncate(text, limit, total=None):
    total = len(text) if total is None else total
    if total <= limit:
        return text
    marker = f'\n... [truncated: {total} characters in all]'
    if len(marker) * 2 > limit:  # a short preview keeps its room for the text
        marker = '...'
    return text[:max(limit - len(marker), 0)] + marker


def render(value, limit):
    """A value as text for a client or a prompt: strings as they are, JSON when possible, else repr."""
    if isinstance(value, str):
        text = value
    else:
        try:
            text = json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError, RecursionError):
            text = repr(value)
    return truncate(text, limit)


def is_user_variable(name, value):
    return (not name.startswith('__') and not isinstance(value, types.ModuleType)
            and helpers.get(name) is not value)


def user_variables():
    return {name: value for name, value in user_ns.items() if is_user_variable(name, value)}


def deep_size(value, seen):
    """Bytes reachable from value (containers and instance dicts), each object counted once.
    User objects can make sizes or contents unreadable; those count as what could be read."""
    total, stack, walked = 0, [value], 0
    while stack and walked < SIZE_WALK_LIMIT:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        walked += 1
        try:
            total += sys.getsizeof(item, 0)
            if isinstance(item, dict):
                stack.extend(item.keys())
                stack.extend(item.values())
            elif isinstance(item, (list, tuple, set, frozenset)):
                stack.extend(item)
            elif not isinstance(item, (str, bytes, bytearray, int, float, complex, type, types.ModuleType, types.FunctionType)):
                stack.append(vars(item))
        except Exception:
            continue
    return total


def describe(value):
    kind = type(value).__name__
    try:
        if isinstance(value, str):
            return f'{kind}, {len(value)} chars'
        if isinstance(value, (bytes, bytearray)):
            return f'{kind}, {len(value)} bytes'
        if isinstance(value, dict):
            return f'{kind}, {len(value)} keys'
        if isinstance(value, (list, tuple, set, frozenset)):
            return f'{kind}, {len(value)} items'
        if isinstance(value, (int, float, bool)):
            return f'{kind}: {truncate(repr(value), 60)}'
    except Exception:
        pass
    return kind


def preview(value, limit):
    try:
        text = repr(value)
    except Exception as exc:
        text = f'<{type(value).__name__} whose repr() failed: {type(exc).__name__}: {exc}>'
    return truncate(text, limit)


def format_exception(exc, filename_prefix='<cell '):
    """A traceback that starts at the user's code, not at the runner's frames."""
    try:
        tb = exc.__traceback__
        while tb is not None and not tb.tb_frame.f_code.co_filename.startswith(filename_prefix):
            tb = tb.tb_next
        return ''.join(traceback.format_exception(type(exc), exc, tb)).rstrip()
    except BaseException:
        return f'{type(exc).__name__}: {exc}'


def compile_cell(code):
    """Compiles a cell; a trailing expression is compiled apart so its value can be returned."""
    global cell_count
    cell_count += 1
    filename = f'<cell {cell_count}>'
    # Lets tracebacks show the offending source line; old cells go so the cache stays small.
    linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
    linecache.cache.pop(f'<cell {cell_count - 100}>', None)
    tree = ast.parse(code, filename, 'exec')
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = compile(ast.Expression(tree.body.pop().value), filename, 'eval')
    return compile(tree, filename, 'exec'), last


def execute(code, result_var, return_result, max_return_chars, max_output_chars):
    output = CappedOutput(max_output_chars)
    before = dict(user_ns)
    value, error = None, None
    saved_streams = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = output
    try:
        body, last = compile_cell(code)
        exec(body, user_ns)
        if last is not None:
            value = eval(last, user_ns)
        if result_var:
            if result_var not in user_ns:
                raise NameError(f"result_var '{result_var}' is not defined")
            value = user_ns[result_var]
    except BaseException as exc:  # KeyboardInterrupt, MemoryError and SystemExit are the user's too
        if isinstance(exc, MemoryError):
            memory_reserve.release()
        value, error = None, format_exception(exc)
    finally:
        sys.stdout, sys.stderr = saved_streams
    changed = [name for name, v in user_ns.items()
               if is_user_variable(name, v) and (name not in before or before[name] is not v)]
    before = None
    result = None
    if return_result and value is not None:
        try:
            result = render(value, max_return_chars)
        except BaseException as exc:
            error = (error + '\n' if error else '') + 'Could not render the result: ' + format_exception(exc)
    return json.dumps({'output': output.text(), 'result': result, 'error': error,
                       'variables_changed': changed})


def variable(name):
    if name not in user_ns or not is_user_variable(name, user_ns[name]):
        raise OperationError('not_found', f"variable '{name}' is not defined in this sandbox")
    return user_ns[name]


def inspect(name, preview_chars):
    if name is None:
        seen, described, total = set(), {}, 0
        for var_name, value in user_variables().items():
            described[var_name] = describe(value)
            total += deep_size(value, seen)
        return json.dumps({'variable_count': len(described), 'variables': described,
                           'total_size_bytes': total})
    value = variable(name)
    return json.dumps({'variable': name, 'type': type(value).__name__,
                       'preview': preview(value, preview_chars),
                       'size_bytes': deep_size(value, set())})


def summary():
    names, seen = list(user_variables()), set()
    total = sum(deep_size(user_ns[name], seen) for name in names)
    return json.dumps({'variable_count': len(names), 'variables': names, 'total_size_bytes': total})


def set_variable(name, json_text, preview_chars):
    if not name.isidentifier() or keyword.iskeyword(name) or name.startswith('__'):
        raise OperationError('invalid', f"'{name}' is not a usable Python variable name")
    value = json.loads(json_text)
    user_ns[name] = value
    return json.dumps({'variable': name, 'type': type(value).__name__,
                       'preview': preview(value, preview_chars)})


def variable_text(name, max_chars):
    value = user_ns.get(name)
    if value is None or not is_user_variable(name, value):
        return json.dumps(None)
    return json.dumps(render(value, max_chars))


def snapshot():
    """Pickles every variable that pickles; says which were left out and why.
    Returns (bytes or None, JSON report): the bytes are the one thing handed to JavaScript raw."""
    try:
        keep, skipped = {}, []
        for name, value in user_variables().items():
            try:
                pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
                keep[name] = value
            except BaseException as exc:
                skipped.append({'name': name, 'reason': truncate(f'{type(exc).__name__}: {exc}', 200)})
        data = pickle.dumps(keep, protocol=pickle.HIGHEST_PROTOCOL)
        return data, json.dumps({'saved': list(keep), 'skipped': skipped})
    except BaseException as exc:
        memory_reserve.release()
        return None, json.dumps({'__error__': 'failed', 'message': format_exception(exc, '<')})


def restore(js_bytes):
    values = pickle.loads(js_bytes.to_bytes())
    user_ns.update(values)
    return json.dumps(list(values))


def guarded(operation):
    """Runs an operation; failures the caller should see come back as JSON, not as exceptions."""
    def run(*args):
        try:
            return operation(*args)
        except OperationError as exc:
            return json.dumps({'__error__': exc.code, 'message': str(exc)})
        except BaseException as exc:
            memory_reserve.release()
            return json.dumps({'__error__': 'failed', 'message': format_exception(exc, '<')})
        finally:
            memory_reserve.settle()
    return run


operations = {
    'execute': guarded(execute),
    'inspect': guarded(inspect),
    'summary': guarded(summary),
    'set_variable': guarded(set_variable),
    'variable_text': guarded(variable_text),
    'restore': guarded(restore),
    'snapshot': snapshot,
    'install_host_functions': install_host_functions,
}
memory_reserve.settle()
`;
