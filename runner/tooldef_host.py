"""The host of one smart tool run: loads ``tool_code``, calls ``execute(variables)``, reports the outcome.

It runs in the tool's own process, so the tool can do anything this file does; nothing it reports is a
verdict. The judge outside (server/src/engine/run/judge.ts) decides from what the kernel tells it: the exit
status, its own clock, the cgroup's counters. The host's outcome only says *what* execute returned or
raised.

Sandbox protocol (``python -I tooldef_host.py``, started by the judge):
  * fd 0: one line of JSON ``{"code": …, "variables": {…}}``; the pipe then stays open, and the host
    waits for it to close after reporting, so the judge can list what is still running first;
  * fd 3: the outcome, one line of JSON; fd 1 and fd 2 are the tool's stdout and stderr.
The legacy supervisor (tooldef_runner.py) imports ``run_tool`` for its child process.

Standard library only; Python 3.8 or later.
"""

import io
import os
import sys

TOOL_FILENAME = "tool_code"
TOOL_MODULE = "__tool__"
THIS_DIR = os.path.dirname(os.path.abspath(__file__))


def _trimmed_traceback(exc):
    """The traceback of `exc` without the runner's own frames at the top."""
    import traceback

    tb = exc.__traceback__
    while tb is not None and os.path.dirname(os.path.abspath(tb.tb_frame.f_code.co_filename)) == THIS_DIR:
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(exc), exc, tb))


def _type_name(value):
    t = type(value)
    module = getattr(t, "__module__", "builtins")
    return t.__qualname__ if module == "builtins" else "{}.{}".format(module, t.__qualname__)


def _safe_repr(value, limit=500):
    import reprlib

    r = reprlib.Repr()
    r.maxstring = r.maxother = r.maxlong = limit
    r.maxlist = r.maxtuple = r.maxset = r.maxfrozenset = r.maxdeque = r.maxarray = r.maxdict = 20
    try:
        text = r.repr(value)
    except BaseException as e:  # a broken __repr__ must not hide the real problem
        text = "<repr failed: {}: {}>".format(type(e).__name__, e)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _exit_code_of(system_exit):
    code = system_exit.code
    if code is None:
        return 0
    return code if isinstance(code, int) else 1  # sys.exit("message") exits with status 1


def close_stdin():
    """fd 0 at end of file, like in the service; returns a flag set once the tool called input()."""
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    state = {"input": False}

    class ClosedStdin(io.TextIOWrapper):
        def readline(self, *args):  # input() reads through readline
            state["input"] = True
            return io.TextIOWrapper.readline(self, *args)

    sys.stdin = ClosedStdin(open(0, "rb", closefd=False), encoding="utf-8")
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(encoding="utf-8", errors="backslashreplace")
        except (AttributeError, ValueError):
            pass
    return state


def run_tool(code, variables, report, state):
    """Runs the tool; `report(outcome)` is called exactly once and must not return."""
    import linecache
    import types

    sys.argv = [TOOL_FILENAME]
    linecache.cache[TOOL_FILENAME] = (len(code), None, code.splitlines(True), TOOL_FILENAME)
    module = types.ModuleType(TOOL_MODULE)
    module.__file__ = TOOL_FILENAME
    sys.modules[TOOL_MODULE] = module

    def failure(kind, exc, message):
        return {"ok": False, "kind": kind, "type": _type_name(exc), "message": message, "traceback": _trimmed_traceback(exc)}

    def exited(exc):
        shown = "" if exc.code is None else repr(exc.code)
        outcome = failure("exited", exc, "The tool called sys.exit({}) before execute returned.".format(shown))
        outcome["exitCode"] = _exit_code_of(exc)
        del outcome["type"]
        return outcome

    def exception(exc, when):
        if isinstance(exc, EOFError) and state["input"]:
            return failure("input", exc, "The tool called input(); stdin is closed in the service, so input() raises EOFError.")
        text = str(exc)
        detail = "{}: {}".format(_type_name(exc), text) if text else _type_name(exc)
        if when == "load":
            return failure("load", exc, "tool_code raised {} while loading, before execute was called.".format(detail))
        return failure("exception", exc, "execute raised {}".format(detail))

    try:
        exec(compile(code, TOOL_FILENAME, "exec", dont_inherit=True), module.__dict__)
    except SystemExit as e:
        report(exited(e))
    except BaseException as e:
        report(exception(e, "load"))

    execute = module.__dict__.get("execute")
    if not callable(execute):
        report({
            "ok": False,
            "kind": "no-execute",
            "message": "tool_code defines no function execute(variables)."
            if execute is None
            else "execute in tool_code is a {}, not a function.".format(_type_name(execute)),
        })
    try:
        value = execute(variables)
    except SystemExit as e:
        report(exited(e))
    except BaseException as e:
        report(exception(e, "execute"))
    if isinstance(value, str):
        report({"ok": True, "result": str(value)})
    shown = _safe_repr(value)
    name = _type_name(value)
    if value is None:
        message = "execute returned None, not a str (does every path end in a return of a string?)."
    else:
        article = "an" if name[:1].lower() in "aeiou" else "a"
        message = "execute returned {} {}, not a str: {}".format(article, name, shown)
    report({"ok": False, "kind": "not-str", "returnType": name, "returnRepr": shown, "message": message})


def main():
    import json

    main_pid = os.getpid()
    job = json.loads(sys.stdin.buffer.readline())
    hold = os.dup(0)  # the judge closes it once it has seen the outcome
    outcome_fd = 3
    state = close_stdin()

    def report(outcome):
        if os.getpid() != main_pid:  # a fork()ed copy of the tool returning from execute
            os._exit(0)
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        data = (json.dumps(outcome, ensure_ascii=True) + "\n").encode()
        while data:
            data = data[os.write(outcome_fd, data):]
        os.close(outcome_fd)
        while os.read(hold, 4096):
            pass
        # Threads or atexit handlers of the tool are not waited for: execute() has returned.
        os._exit(0)

    run_tool(job["code"], job["variables"], report, state)


if __name__ == "__main__":
    main()
