"""Run a script as a fresh interpreter would, for a fraction of the cost.

Many tests run a script "in a fresh process" (an example, a saved model loaded
where nothing of the saving process is left). Starting an interpreter and
importing numpy and runtime costs about 1.5-2.5 CPU-seconds each time; the suite
did it some 60 times. Here one helper process per test worker (the zygote)
imports numpy, runtime and runtime.keras once, then forks a child for each run:
the child starts from the state right after those imports, as a new
interpreter's `import runtime` would leave it, runs the script as `__main__`,
and reports its exit status, stdout and stderr like `subprocess.run`.

Only use it where the script's behaviour matters, not what importing does: the
modules are already imported when the script starts (tests of import-time
behaviour, such as which modules `import runtime` loads, start a real
interpreter)."""

import atexit
import json
import os
import subprocess
import sys
import threading

from tests.paths import ROOT

# The zygote's own code: read one JSON request a line, fork, answer one JSON line.
_ZYGOTE = r'''
import atexit, io, json, os, runpy, signal, sys, traceback
proto = os.fdopen(os.dup(1), "w")
requests = os.fdopen(os.dup(0), "r")
import numpy, runtime, runtime.keras  # noqa: F401,E401 - the shared start
base_path, base_env, base_modules = list(sys.path), dict(os.environ), set(sys.modules)

def child(req):
    signal.alarm(req["timeout"])
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(os.open(req["out"], os.O_WRONLY | os.O_TRUNC), 1)
    os.dup2(os.open(req["err"], os.O_WRONLY | os.O_TRUNC), 2)
    sys.stdin = open(0, "r", closefd=False)
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
    sys.stderr = open(2, "w", encoding="utf-8", closefd=False)
    os.chdir(req["cwd"])
    os.environ.clear()
    os.environ.update(req["env"])
    argv = req["argv"]
    code = 0
    try:
        if argv[0] == "-c":
            sys.argv = ["-c", *argv[2:]]
            sys.path[:] = [""] + base_path[1:]
            main = type(sys)("__main__")
            sys.modules["__main__"] = main
            exec(compile(argv[1], "<string>", "exec"), main.__dict__)
        else:
            sys.argv = list(argv)
            sys.path[:] = [os.path.dirname(os.path.abspath(argv[0]))] + base_path[1:]
            runpy.run_path(argv[0], run_name="__main__")
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        if not isinstance(e.code, int) and e.code is not None:
            print(e.code, file=sys.stderr)
    except BaseException as e:
        tb = e.__traceback__.tb_next        # the script's frames, as python prints them
        while tb is not None and tb.tb_frame.f_code.co_filename.endswith("runpy.py"):
            tb = tb.tb_next
        traceback.print_exception(type(e), e, tb)
        code = 1
    try:
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code)

for line in requests:
    req = json.loads(line)
    pid = os.fork()
    if pid == 0:
        child(req)
    _, status = os.waitpid(pid, 0)
    proto.write(json.dumps(os.waitstatus_to_exitcode(status)) + "\n")
    proto.flush()
'''

_lock = threading.Lock()
_zygote = None


def _start():
    global _zygote
    if _zygote is None or _zygote.poll() is not None:
        env = dict(os.environ)
        env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
        # BLAS threads as the test process has them: a fork's sums must give the
        # same bits as the parent's (a saved model's outputs are compared so)
        _zygote = subprocess.Popen([sys.executable, "-c", _ZYGOTE], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, text=True, cwd=str(ROOT), env=env)
        atexit.register(_stop, _zygote)
    return _zygote


def _stop(zygote):
    """End of the test run: the zygote reads end-of-file and exits."""
    zygote.stdin.close()
    zygote.wait(timeout=60)


def run(argv, cwd=None, env=None, timeout=120, capture_output=True, text=True, check=False,
        encoding="utf-8"):
    """`subprocess.run([sys.executable, *argv], capture_output=True, text=True)`
    with `argv` a script path and its arguments or `["-c", code, *args]`, run
    in a fork of the zygote; returns a CompletedProcess (the keywords that
    `subprocess.run` would take are there so that a call reads the same)."""
    import tempfile
    assert capture_output and text and not check and encoding == "utf-8"
    argv = [str(a) for a in argv]
    if env is None:
        env = dict(os.environ)
    with tempfile.TemporaryDirectory() as tmp:
        out, err = os.path.join(tmp, "out"), os.path.join(tmp, "err")
        open(out, "w").close()
        open(err, "w").close()
        request = {"argv": argv, "cwd": str(cwd or os.getcwd()), "env": dict(env),
                   "timeout": int(timeout), "out": out, "err": err}
        with _lock:
            zygote = _start()
            zygote.stdin.write(json.dumps(request) + "\n")
            zygote.stdin.flush()
            code = json.loads(zygote.stdout.readline())
        with open(out, encoding="utf-8") as f, open(err, encoding="utf-8") as g:
            stdout, stderr = f.read(), g.read()
    return subprocess.CompletedProcess([sys.executable, *argv], code, stdout, stderr)
