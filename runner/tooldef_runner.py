#!/usr/bin/env python3
"""Runs one smart tool's ``execute(variables)`` locally under the service's limits.

Usage: ``python3 tooldef_runner.py JOB.json``

The job file (written by the tooldef extension or CLI) holds the tool's code, the variables, the limits
and where to write the result. This script is the *supervisor*: it starts the tool in a child process
(this same file with ``--child``), enforces the wall-clock and memory limits on the child's whole process
tree, streams the tool's stdout/stderr through (capped), and writes one JSON result to
``job["resultPath"]``. The tool's own result travels from the child to the supervisor in a separate
file, never through stdout.

Limits, strongest mechanism first:
  * Linux: a cgroup v2 child of the supervisor's own cgroup with ``memory.max`` (set and read back) and
    ``memory.oom.group``; otherwise the supervisor is the tree's child subreaper and polls the summed
    resident memory of every descendant (setsid'd ones included, they reparent to it).
  * macOS and other POSIX systems: polling ``ps`` for the child's process group and descendants, plus
    every process whose environment carries the run's ``TOOLDEF_RUN_ID`` marker (no subreaper there).
  * Windows: a Job Object with JOB_OBJECT_LIMIT_JOB_MEMORY and KILL_ON_JOB_CLOSE.
RLIMIT_AS is never used: it counts virtual memory, not memory in use.

Only the standard library is used, and the file runs on Python 3.8 and later.
"""

import json
import os
import signal
import subprocess
import sys
import threading
import time

PROTOCOL = 1
# The service's limits: a job may lower them, never raise them.
MAX_TIMEOUT_SECONDS = 15 * 60
MAX_MEMORY_BYTES = 10 * 1024 ** 3
DEFAULT_OUTPUT_CAP = 10 * 1024 * 1024
# A returned string larger than this is not passed back (the JSON of the child's result, in bytes).
RESULT_CAP = 64 * 1024 * 1024
POLL_SECONDS = 0.05
NOTICE_PREFIX = "[tooldef] "
CALLER_GONE = "the caller went away"
GO = b"go\n"
THIS_FILE = os.path.abspath(__file__)

# Where the runner reads its own mounts and cgroup from (tests point it at a fake tree).
PROC_SELF = "/proc/self"

IS_WINDOWS = sys.platform == "win32"
IS_LINUX = sys.platform.startswith("linux")


def _mb(n):
    return n / (1024.0 * 1024.0)


def _fmt_mb(n):
    return "{:.0f} MB".format(_mb(n)) if n >= 10 * 1024 * 1024 else "{:.1f} MB".format(_mb(n))


def _fmt_seconds(s):
    return "{:g} s".format(round(s, 1)) if s < 120 else "{:.1f} min".format(s / 60.0)


def _write_json_atomic(path, obj):
    tmp = "{}.{}.tmp".format(path, os.getpid())
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(obj, f, ensure_ascii=True)
        f.flush()
    os.replace(tmp, path)


# ---------------------------------------------------------------------------------------------------
# The child: runs the tool code (tooldef_host.py, shared with the sandbox). Everything the tool sees starts here.
# ---------------------------------------------------------------------------------------------------


def child_main(job_path, result_path):
    main_pid = os.getpid()
    # Wait for the supervisor: it attaches this process to the cgroup / job object first, so nothing
    # of the tool runs outside the limits. Then stdin is closed for good, like in the service.
    line = sys.stdin.buffer.readline()
    if line != GO:
        os._exit(70)
    sys.path.insert(0, os.path.dirname(THIS_FILE))  # -I leaves the script's folder off sys.path
    import tooldef_host

    state = tooldef_host.close_stdin()
    if IS_LINUX:
        try:  # die with the supervisor (the supervisor also kills the whole tree itself)
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
        except Exception:
            pass

    def report(obj):
        if os.getpid() != main_pid:  # a fork()ed copy of the tool returning from execute
            os._exit(0)
        _write_json_atomic(result_path, obj)
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        # Threads or atexit handlers of the tool are not waited for: execute() has returned.
        os._exit(0)

    try:
        with open(job_path, "r", encoding="utf-8") as f:
            job = json.load(f)
        code = job["code"]
        variables = job["variables"]
    except Exception as e:
        report({"ok": False, "kind": "runner", "message": "cannot read the job: {}".format(e)})
        return
    tooldef_host.run_tool(code, variables, report, state)


# ---------------------------------------------------------------------------------------------------
# Process-tree trackers: one per platform mechanism.
# ---------------------------------------------------------------------------------------------------


class Proc(object):
    __slots__ = ("pid", "ppid", "pgid", "state", "rss", "start")

    def __init__(self, pid, ppid, pgid, state, rss, start):
        self.pid, self.ppid, self.pgid, self.state, self.rss, self.start = pid, ppid, pgid, state, rss, start


class Tracker(object):
    """What the supervisor needs from a platform: attach the child, measure, kill everything."""

    name = "none"
    note = ""

    def attach(self, popen):
        """Called after the child started and before it is told to run the tool."""

    def sample(self):
        """Memory in use by the whole tree now, in bytes."""
        return 0

    def confirm(self, value):
        """A more exact (costlier) measure when `value` crossed the limit; the polled value by default."""
        return value

    def kernel_memory_kill(self):
        """True when the OS itself stopped the tree for exceeding its memory limit."""
        return False

    def kernel_peak(self):
        return None

    def enforces_memory(self):
        """True when the OS enforces the memory limit (the supervisor need not compare samples)."""
        return False

    def kill_all(self):
        """Kills every process of the run; returns the [(pid, command)] that were alive."""
        return []

    def reap(self):
        """Collects exit statuses; returns {pid: raw status} of the processes collected."""
        return {}

    def close(self):
        pass


def _linux_cmdline(pid):
    try:
        with open("/proc/{}/cmdline".format(pid), "rb") as f:
            raw = f.read(4096)
        text = raw.replace(b"\0", b" ").decode("utf-8", "replace").strip()
        if text:
            return text[:200]
        with open("/proc/{}/comm".format(pid), "rb") as f:
            return "[{}]".format(f.read().decode("utf-8", "replace").strip())
    except OSError:
        return "?"


def marked_pids(marker):
    """Live processes whose environment holds the run's marker: every descendant inherits it (unless
    it was started with a clean environment), so this finds processes that left the tree, e.g. a
    setsid()ed grandchild whose parent died where there is no subreaper (macOS)."""
    found = set()
    me = os.getpid()
    needle = marker.encode()
    if os.path.isdir("/proc/self"):
        for name in os.listdir("/proc"):
            if not name.isdigit() or int(name) == me:
                continue
            try:
                with open("/proc/{}/environ".format(name), "rb") as f:
                    env = f.read()
            except OSError:
                continue
            if needle in env.split(b"\0"):
                found.add(int(name))
        return found
    try:  # BSD ps: -E appends the environment to the command column
        ps = subprocess.Popen(["ps", "-A", "-ww", "-E", "-o", "pid=,command="],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    except OSError:
        return found
    try:
        data = ps.communicate(timeout=10)[0]
    except subprocess.TimeoutExpired:
        ps.kill()
        ps.communicate()
        return found
    for line in data.splitlines():
        parts = line.split(None, 1)
        if len(parts) == 2 and parts[0].isdigit() and needle in parts[1].split():
            pid = int(parts[0])
            if pid not in (me, ps.pid):
                found.add(pid)
    return found


class PosixTracker(Tracker):
    """Shared POSIX behaviour: stop-then-kill of every process found, reaping of our children."""

    reap_any = False  # waitpid(-1): only where orphans reparent to us (Linux subreaper)

    def __init__(self):
        self.child_pid = None
        self.statuses = {}
        self.marker = None  # "TOOLDEF_RUN_ID=…", set by the supervisor

    def attach(self, popen):
        self.child_pid = popen.pid

    def reap(self):
        got = {}
        while True:
            try:
                pid, status = os.waitpid(-1 if self.reap_any else self.child_pid, os.WNOHANG)
            except ChildProcessError:
                break
            except InterruptedError:
                continue
            if pid == 0:
                break
            got[pid] = status
            if not self.reap_any:
                break
        self.statuses.update(got)
        return got

    def processes(self, fast=False, sweep=False):
        """{pid: Proc} of live processes of the run; `sweep` adds those found by the marker."""
        return {}

    def command(self, pid):
        return "?"

    def kill_all(self):
        killed = {}
        # Freeze first, so nothing can fork while we kill: repeat until a scan finds nothing new.
        stopped = set()
        for _ in range(100):
            new = [pid for pid in self.processes(sweep=True) if pid not in stopped]
            if not new:
                break
            for pid in new:
                killed.setdefault(pid, self.command(pid))
                self._signal(pid, signal.SIGSTOP)
            stopped.update(new)
        # Then kill, until no process of the run is left (a large process takes a moment to go).
        for _ in range(1000):
            found = self.processes(sweep=True)
            for pid in found:
                killed.setdefault(pid, self.command(pid))
                self._signal(pid, signal.SIGKILL)
            self.reap()
            if not found:
                break
            time.sleep(0.01)
        self.reap()
        return sorted(killed.items())

    @staticmethod
    def _signal(pid, sig):
        try:
            os.kill(pid, sig)
        except OSError:
            pass


class LinuxTracker(PosixTracker):
    """Child subreaper + /proc polling, with a cgroup v2 memory limit when one can be applied."""

    reap_any = True

    def __init__(self, memory_limit, mechanism):
        PosixTracker.__init__(self)
        self.memory_limit = memory_limit
        self.self_pid = os.getpid()
        self.page = os.sysconf("SC_PAGE_SIZE")
        self.cgroup = None
        self.notes = []
        self.subreaper = self._become_subreaper()
        if mechanism != "poll":
            self.cgroup = self._make_cgroup()
        self.name = "cgroup" if self.cgroup else "poll"
        self.children_files = os.path.exists("/proc/self/task/{}/children".format(self.self_pid))
        self.note = "; ".join(self.notes)

    # -- subreaper --------------------------------------------------------------------------------

    def _become_subreaper(self):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(36, 1, 0, 0, 0) == 0:  # PR_SET_CHILD_SUBREAPER
                return True
            self.notes.append("not a child subreaper (errno {})".format(ctypes.get_errno()))
        except Exception as e:
            self.notes.append("not a child subreaper ({})".format(e))
        return False

    # -- cgroup v2 --------------------------------------------------------------------------------

    @staticmethod
    def _unescape_mount(path):
        return path.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\")

    def _own_cgroup_dir(self):
        mount = mount_root = None
        with open(os.path.join(PROC_SELF, "mountinfo"), "r") as f:
            for line in f:
                parts = line.split()
                try:
                    sep = parts.index("-")
                except ValueError:
                    continue
                if parts[sep + 1] == "cgroup2":
                    mount_root, mount = parts[3], self._unescape_mount(parts[4])
                    break
        if mount is None:
            return None, "no cgroup v2 hierarchy is mounted"
        rel = None
        with open(os.path.join(PROC_SELF, "cgroup"), "r") as f:
            for line in f:
                if line.startswith("0::"):
                    rel = line[3:].rstrip("\n")
        if rel is None:
            return None, "this process is in no cgroup v2"
        if rel.endswith(" (deleted)"):
            return None, "this process's cgroup was deleted"
        if mount_root != "/" and (rel == mount_root or rel.startswith(mount_root + "/")):
            rel = rel[len(mount_root):]
        path = os.path.normpath(os.path.join(mount, rel.lstrip("/")))
        if not os.path.isdir(path):
            return None, "cgroup {} is not visible at {}".format(rel, path)
        return path, None

    @staticmethod
    def _read(path):
        with open(path, "r") as f:
            return f.read()

    @staticmethod
    def _write(path, text):
        with open(path, "w") as f:
            f.write(text)

    def _make_cgroup(self):
        try:
            own, why = self._own_cgroup_dir()
            if own is None:
                self.notes.append("no cgroup v2 limit: " + why)
                return None
            if "memory" not in self._read(os.path.join(own, "cgroup.controllers")).split():
                self.notes.append("no cgroup v2 limit: the memory controller is not available in {}".format(own))
                return None
            control = os.path.join(own, "cgroup.subtree_control")
            if "memory" not in self._read(control).split():
                try:
                    self._write(control, "+memory")
                except OSError as e:
                    self.notes.append(
                        "no cgroup v2 limit: cannot enable the memory controller below {} ({})".format(own, e.strerror)
                    )
                    return None
            path = os.path.join(own, "tooldef-run-{}".format(self.self_pid))
            try:
                os.mkdir(path)
            except FileExistsError:
                pass
            try:
                self._write(os.path.join(path, "memory.max"), str(self.memory_limit))
                got = self._read(os.path.join(path, "memory.max")).strip()
                if got == "max" or abs(int(got) - self.memory_limit) > self.page:
                    raise OSError(0, "memory.max reads back {}".format(got))
                for name, value in (("memory.swap.max", "0"), ("memory.oom.group", "1")):
                    try:
                        self._write(os.path.join(path, name), value)
                    except OSError:
                        if name == "memory.oom.group":
                            self.notes.append("memory.oom.group not settable")
            except (OSError, ValueError) as e:
                self._rmdir(path)
                self.notes.append("no cgroup v2 limit: {}".format(getattr(e, "strerror", None) or e))
                return None
            return path
        except OSError as e:
            self.notes.append("no cgroup v2 limit: {}".format(e))
            return None

    def _rmdir(self, path):
        for _ in range(50):
            try:
                os.rmdir(path)
                return True
            except FileNotFoundError:
                return True
            except OSError:
                time.sleep(0.02)
        return False

    def attach(self, popen):
        PosixTracker.attach(self, popen)
        if self.cgroup:
            try:
                self._write(os.path.join(self.cgroup, "cgroup.procs"), str(popen.pid))
            except OSError as e:
                self.notes.append("cannot move the tool into its cgroup ({}); polling instead".format(e.strerror))
                self.note = "; ".join(self.notes)
                self._rmdir(self.cgroup)
                self.cgroup = None
                self.name = "poll"

    def _events(self):
        out = {}
        try:
            for line in self._read(os.path.join(self.cgroup, "memory.events")).splitlines():
                k, _, v = line.partition(" ")
                out[k] = int(v)
        except (OSError, ValueError):
            pass
        return out

    def kernel_memory_kill(self):
        if not self.cgroup:
            return False
        ev = self._events()
        return ev.get("oom_kill", 0) > 0 or ev.get("oom_group_kill", 0) > 0 or ev.get("oom", 0) > 0

    def kernel_peak(self):
        if not self.cgroup:
            return None
        try:
            return int(self._read(os.path.join(self.cgroup, "memory.peak")).strip())
        except (OSError, ValueError):
            return None

    def enforces_memory(self):
        return self.cgroup is not None

    # -- the tree ---------------------------------------------------------------------------------

    def _stat(self, pid):
        try:
            with open("/proc/{}/stat".format(pid), "rb") as f:
                data = f.read()
        except OSError:
            return None
        r = data.rfind(b")")
        fields = data[r + 2:].split()
        try:
            return Proc(pid, int(fields[1]), int(fields[2]), fields[0].decode(), int(fields[21]) * self.page, int(fields[19]))
        except (IndexError, ValueError):
            return None

    def _descendants_by_scan(self):
        children = {}
        procs = {}
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            p = self._stat(int(name))
            if p is not None:
                procs[p.pid] = p
                children.setdefault(p.ppid, []).append(p.pid)
        out = {}
        stack = [self.self_pid]
        while stack:
            for c in children.get(stack.pop(), ()):
                if c not in out:
                    out[c] = procs[c]
                    stack.append(c)
        return out

    def _descendants_by_children_files(self):
        out = {}
        stack = [self.self_pid]
        while stack:
            pid = stack.pop()
            try:
                tids = os.listdir("/proc/{}/task".format(pid))
            except OSError:
                continue
            for tid in tids:
                try:
                    with open("/proc/{}/task/{}/children".format(pid, tid), "rb") as f:
                        kids = f.read().split()
                except OSError:
                    continue
                for k in kids:
                    c = int(k)
                    if c not in out:
                        p = self._stat(c)
                        if p is not None:
                            out[c] = p
                            stack.append(c)
        return out

    def processes(self, fast=False, sweep=False):
        found = self._descendants_by_children_files() if fast and self.children_files else self._descendants_by_scan()
        if sweep and self.marker:
            for pid in marked_pids(self.marker):
                if pid not in found:
                    p = self._stat(pid)
                    if p is not None:
                        found[pid] = p
        if self.cgroup:
            try:
                for line in self._read(os.path.join(self.cgroup, "cgroup.procs")).split():
                    pid = int(line)
                    if pid not in found:
                        p = self._stat(pid)
                        if p is not None:
                            found[pid] = p
            except (OSError, ValueError):
                pass
        return dict((pid, p) for pid, p in found.items() if p.state not in ("Z", "X"))

    def command(self, pid):
        return _linux_cmdline(pid)

    def sample(self):
        if self.cgroup:
            try:
                return int(self._read(os.path.join(self.cgroup, "memory.current")).strip())
            except (OSError, ValueError):
                pass
        self._last = self.processes(fast=True)
        return sum(p.rss for p in self._last.values())

    def confirm(self, value):
        """Resident memory counts pages shared between processes once per process; PSS splits them."""
        total = 0
        for pid, p in getattr(self, "_last", {}).items():
            pss = None
            try:
                with open("/proc/{}/smaps_rollup".format(pid), "rb") as f:
                    for line in f:
                        if line.startswith(b"Pss:"):
                            pss = int(line.split()[1]) * 1024
                            break
            except (OSError, ValueError):
                pass
            total += p.rss if pss is None else pss
        return min(value, total) if total else value

    def kill_all(self):
        if self.cgroup:
            try:
                self._write(os.path.join(self.cgroup, "cgroup.kill"), "1")
            except OSError:
                pass
        return PosixTracker.kill_all(self)

    def close(self):
        if self.cgroup:
            self._rmdir(self.cgroup)


class PsTracker(PosixTracker):
    """macOS and other POSIX systems: `ps` polling of the child's process group and descendants.

    Processes that leave the group with setsid() and whose parent then dies reparent to launchd, out of
    reach of a ppid walk, so every process ever seen is remembered (with its start time, so a reused
    pid is never killed) and killed at the end if still alive."""

    name = "process-group"

    def __init__(self):
        PosixTracker.__init__(self)
        self.self_pid = os.getpid()
        self.seen = {}  # pid -> start time text
        self.commands = {}
        self.last_sweep = 0.0

    def _ps(self):
        try:
            ps = subprocess.Popen(
                ["ps", "-A", "-o", "pid=,ppid=,pgid=,rss=,stat=,lstart=,command="],
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                stdin=subprocess.DEVNULL,
            )
        except OSError:
            return {}
        try:
            out = ps.communicate(timeout=10)[0].decode("utf-8", "replace")
        except subprocess.TimeoutExpired:
            ps.kill()
            ps.communicate()
            return {}
        procs = {}
        for line in out.splitlines():
            parts = line.split(None, 10)
            if len(parts) < 10:
                continue
            try:
                pid, ppid, pgid, rss = int(parts[0]), int(parts[1]), int(parts[2]), int(parts[3]) * 1024
            except ValueError:
                continue
            if parts[4].startswith("Z") or pid == ps.pid:
                continue  # a zombie (already dead), or ps itself
            start = " ".join(parts[5:10])  # e.g. "Mon Mar  4 10:00:00 2024"
            procs[pid] = Proc(pid, ppid, pgid, parts[4], rss, start)
            self.commands[pid] = (parts[10] if len(parts) > 10 else "?")[:200]
        return procs

    def processes(self, fast=False, sweep=False):
        procs = self._ps()
        now = time.monotonic()
        if self.marker and (sweep or now - self.last_sweep >= 1.0):
            self.last_sweep = now
            for pid in marked_pids(self.marker):
                p = procs.get(pid)
                if p is not None:
                    self.seen.setdefault(pid, p.start)
        children = {}
        for p in procs.values():
            children.setdefault(p.ppid, []).append(p.pid)
        out = {}
        stack = [self.self_pid]
        while stack:
            for c in children.get(stack.pop(), ()):
                if c not in out:
                    out[c] = procs[c]
                    stack.append(c)
        if self.child_pid:
            for p in procs.values():
                if p.pgid == self.child_pid and p.pid != self.self_pid:
                    out[p.pid] = p
        for pid, start in list(self.seen.items()):
            p = procs.get(pid)
            if p is not None and p.start == start:
                out[pid] = p
        for pid, p in out.items():
            self.seen[pid] = p.start
        return out

    def command(self, pid):
        return self.commands.get(pid, "?")

    def sample(self):
        self._last = self.processes()
        return sum(p.rss for p in self._last.values())


class WindowsTracker(Tracker):
    """A Job Object: the OS limits the committed memory of the whole job and kills it on close."""

    name = "job-object"

    JobObjectBasicAccountingInformation = 1
    JobObjectExtendedLimitInformation = 9
    JobObjectAssociateCompletionPortInformation = 7
    JobObjectBasicProcessIdList = 3
    JOB_OBJECT_LIMIT_JOB_MEMORY = 0x00000200
    JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION = 0x00000400
    JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE = 0x00002000
    JOB_OBJECT_MSG_JOB_MEMORY_LIMIT = 10
    JOB_OBJECT_MSG_PROCESS_MEMORY_LIMIT = 9

    def __init__(self, memory_limit):
        import ctypes
        from ctypes import wintypes

        self.ctypes = ctypes
        self.k32 = ctypes.WinDLL("kernel32", use_last_error=True)
        k32 = self.k32
        self.memory_hit = False
        self.child = None
        self.statuses = {}

        class IO_COUNTERS(ctypes.Structure):
            _fields_ = [(n, ctypes.c_ulonglong) for n in (
                "ReadOperationCount", "WriteOperationCount", "OtherOperationCount",
                "ReadTransferCount", "WriteTransferCount", "OtherTransferCount")]

        class BASIC_LIMIT(ctypes.Structure):
            _fields_ = [
                ("PerProcessUserTimeLimit", ctypes.c_longlong),
                ("PerJobUserTimeLimit", ctypes.c_longlong),
                ("LimitFlags", wintypes.DWORD),
                ("MinimumWorkingSetSize", ctypes.c_size_t),
                ("MaximumWorkingSetSize", ctypes.c_size_t),
                ("ActiveProcessLimit", wintypes.DWORD),
                ("Affinity", ctypes.c_size_t),
                ("PriorityClass", wintypes.DWORD),
                ("SchedulingClass", wintypes.DWORD),
            ]

        class EXTENDED_LIMIT(ctypes.Structure):
            _fields_ = [
                ("BasicLimitInformation", BASIC_LIMIT),
                ("IoInfo", IO_COUNTERS),
                ("ProcessMemoryLimit", ctypes.c_size_t),
                ("JobMemoryLimit", ctypes.c_size_t),
                ("PeakProcessMemoryUsed", ctypes.c_size_t),
                ("PeakJobMemoryUsed", ctypes.c_size_t),
            ]

        class BASIC_ACCOUNTING(ctypes.Structure):
            _fields_ = [
                ("TotalUserTime", ctypes.c_longlong),
                ("TotalKernelTime", ctypes.c_longlong),
                ("ThisPeriodTotalUserTime", ctypes.c_longlong),
                ("ThisPeriodTotalKernelTime", ctypes.c_longlong),
                ("TotalPageFaultCount", wintypes.DWORD),
                ("TotalProcesses", wintypes.DWORD),
                ("ActiveProcesses", wintypes.DWORD),
                ("TotalTerminatedProcesses", wintypes.DWORD),
            ]

        class COMPLETION_PORT(ctypes.Structure):
            _fields_ = [("CompletionKey", ctypes.c_void_p), ("CompletionPort", wintypes.HANDLE)]

        self.EXTENDED_LIMIT = EXTENDED_LIMIT
        self.BASIC_ACCOUNTING = BASIC_ACCOUNTING

        k32.CreateJobObjectW.restype = wintypes.HANDLE
        k32.CreateJobObjectW.argtypes = (ctypes.c_void_p, wintypes.LPCWSTR)
        k32.SetInformationJobObject.restype = wintypes.BOOL
        k32.SetInformationJobObject.argtypes = (wintypes.HANDLE, ctypes.c_int, ctypes.c_void_p, wintypes.DWORD)
        k32.QueryInformationJobObject.restype = wintypes.BOOL
        k32.QueryInformationJobObject.argtypes = (
            wintypes.HANDLE, ctypes.c_int, ctypes.c_void_p, wintypes.DWORD, ctypes.POINTER(wintypes.DWORD))
        k32.AssignProcessToJobObject.restype = wintypes.BOOL
        k32.AssignProcessToJobObject.argtypes = (wintypes.HANDLE, wintypes.HANDLE)
        k32.TerminateJobObject.restype = wintypes.BOOL
        k32.TerminateJobObject.argtypes = (wintypes.HANDLE, wintypes.UINT)
        k32.CloseHandle.restype = wintypes.BOOL
        k32.CloseHandle.argtypes = (wintypes.HANDLE,)
        k32.CreateIoCompletionPort.restype = wintypes.HANDLE
        k32.CreateIoCompletionPort.argtypes = (wintypes.HANDLE, wintypes.HANDLE, ctypes.c_void_p, wintypes.DWORD)
        k32.GetQueuedCompletionStatus.restype = wintypes.BOOL
        k32.GetQueuedCompletionStatus.argtypes = (
            wintypes.HANDLE, ctypes.POINTER(wintypes.DWORD), ctypes.POINTER(ctypes.c_void_p),
            ctypes.POINTER(ctypes.c_void_p), wintypes.DWORD)

        self.job = k32.CreateJobObjectW(None, None)
        if not self.job:
            raise OSError(ctypes.get_last_error(), "CreateJobObject failed")
        info = EXTENDED_LIMIT()
        info.BasicLimitInformation.LimitFlags = (
            self.JOB_OBJECT_LIMIT_JOB_MEMORY
            | self.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
            | self.JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION
        )
        info.JobMemoryLimit = memory_limit
        if not k32.SetInformationJobObject(
            self.job, self.JobObjectExtendedLimitInformation, ctypes.byref(info), ctypes.sizeof(info)
        ):
            raise OSError(ctypes.get_last_error(), "SetInformationJobObject failed")
        INVALID_HANDLE_VALUE = wintypes.HANDLE(-1).value
        self.port = k32.CreateIoCompletionPort(INVALID_HANDLE_VALUE, None, None, 1)
        if self.port:
            assoc = COMPLETION_PORT(None, self.port)
            if not k32.SetInformationJobObject(
                self.job, self.JobObjectAssociateCompletionPortInformation, ctypes.byref(assoc), ctypes.sizeof(assoc)
            ):
                k32.CloseHandle(self.port)
                self.port = None

    def attach(self, popen):
        self.child = popen
        # Popen keeps the process handle; assigning it puts the not-yet-running tool in the job.
        if not self.k32.AssignProcessToJobObject(self.job, int(popen._handle)):
            raise OSError(self.ctypes.get_last_error(), "AssignProcessToJobObject failed")

    def _drain_port(self):
        if not self.port:
            return
        from ctypes import wintypes

        ctypes = self.ctypes
        msg = wintypes.DWORD()
        key = ctypes.c_void_p()
        ov = ctypes.c_void_p()
        while self.k32.GetQueuedCompletionStatus(self.port, ctypes.byref(msg), ctypes.byref(key), ctypes.byref(ov), 0):
            if msg.value in (self.JOB_OBJECT_MSG_JOB_MEMORY_LIMIT, self.JOB_OBJECT_MSG_PROCESS_MEMORY_LIMIT):
                self.memory_hit = True

    def _limits(self):
        info = self.EXTENDED_LIMIT()
        self.k32.QueryInformationJobObject(
            self.job, self.JobObjectExtendedLimitInformation, self.ctypes.byref(info), self.ctypes.sizeof(info), None
        )
        return info

    def _active(self):
        acc = self.BASIC_ACCOUNTING()
        if self.k32.QueryInformationJobObject(
            self.job, self.JobObjectBasicAccountingInformation, self.ctypes.byref(acc), self.ctypes.sizeof(acc), None
        ):
            return acc.ActiveProcesses
        return 0

    def sample(self):
        # Windows has no "job memory now" query; the peak of committed memory is what the limit applies to.
        self._drain_port()
        return self._limits().PeakJobMemoryUsed

    def kernel_memory_kill(self):
        self._drain_port()
        return self.memory_hit

    def kernel_peak(self):
        return self._limits().PeakJobMemoryUsed

    def enforces_memory(self):
        return True

    def _pids(self):
        ctypes = self.ctypes

        class PID_LIST(ctypes.Structure):
            _fields_ = [("Assigned", ctypes.c_ulong), ("InList", ctypes.c_ulong), ("List", ctypes.c_size_t * 1024)]

        lst = PID_LIST()
        if not self.k32.QueryInformationJobObject(
            self.job, self.JobObjectBasicProcessIdList, ctypes.byref(lst), ctypes.sizeof(lst), None
        ):
            return []
        return [int(lst.List[i]) for i in range(min(lst.InList, 1024))]

    def kill_all(self):
        alive = [(pid, "?") for pid in self._pids()]
        if self._active():
            self.k32.TerminateJobObject(self.job, 1)
            for _ in range(100):
                if not self._active():
                    break
                time.sleep(0.02)
        return alive

    def reap(self):
        if self.child is not None and self.child.poll() is not None:
            self.statuses[self.child.pid] = self.child.returncode
            return {self.child.pid: self.child.returncode}
        return {}

    def close(self):
        if self.port:
            self.k32.CloseHandle(self.port)
            self.port = None
        if self.job:
            self.k32.CloseHandle(self.job)  # KILL_ON_JOB_CLOSE: nothing of the run survives this
            self.job = None


def make_tracker(memory_limit, mechanism):
    if IS_WINDOWS:
        return WindowsTracker(memory_limit)
    if mechanism == "process-group":  # what macOS uses; selectable on Linux so that it can be tested
        return PsTracker()
    if IS_LINUX:
        return LinuxTracker(memory_limit, mechanism)
    return PsTracker()


# ---------------------------------------------------------------------------------------------------
# Output: streamed through live, capped, always drained.
# ---------------------------------------------------------------------------------------------------


class Output(object):
    def __init__(self, cap):
        self.cap = cap
        self.total = 0
        self.forwarded = 0
        self.truncated = False
        self.broken = False  # our reader went away
        self.lock = threading.Lock()

    def _emit(self, stream, data):
        if self.broken:
            return
        try:
            stream.write(data)
            stream.flush()
        except (OSError, ValueError):
            self.broken = True

    def notice(self, text):
        with self.lock:
            self._emit(sys.stderr.buffer, ("\n" + NOTICE_PREFIX + text + "\n").encode("utf-8"))

    def pump(self, fd, stream):
        while True:
            try:
                data = os.read(fd, 1 << 16)
            except InterruptedError:
                continue
            except OSError:
                break
            if not data:
                break
            with self.lock:
                self.total += len(data)
                room = self.cap - self.forwarded
                if room > 0:
                    part = data[:room]
                    self.forwarded += len(part)
                    self._emit(stream, part)
                if len(data) > room and not self.truncated:
                    self.truncated = True
                    self._emit(
                        sys.stderr.buffer,
                        (
                            "\n{}The tool's output passed {}; the rest is not shown (the run goes on).\n".format(
                                NOTICE_PREFIX, _fmt_mb(self.cap)
                            )
                        ).encode("utf-8"),
                    )
        try:
            os.close(fd)
        except OSError:
            pass


# ---------------------------------------------------------------------------------------------------
# The supervisor.
# ---------------------------------------------------------------------------------------------------


def _signal_name(sig):
    try:
        return signal.Signals(sig).name
    except ValueError:
        return "signal {}".format(sig)


class Supervisor(object):
    def __init__(self, job, job_path):
        self.job = job
        self.job_path = job_path
        self.timeout = min(float(job.get("timeoutSeconds") or MAX_TIMEOUT_SECONDS), MAX_TIMEOUT_SECONDS)
        self.memory = min(int(job.get("memoryBytes") or MAX_MEMORY_BYTES), MAX_MEMORY_BYTES)
        if self.timeout <= 0 or self.memory <= 0:
            raise ValueError("limits must be positive")
        self.output = Output(int(job.get("outputCapBytes") or DEFAULT_OUTPUT_CAP))
        self.child_result_path = job["childResultPath"]
        self.cancel = threading.Event()
        self.cancel_reason = None
        self.notices = []

    def _on_signal(self, signum, _frame):
        self.cancel_reason = self.cancel_reason or "the runner received {}".format(_signal_name(signum))
        self.cancel.set()

    def _watch_stdin(self):
        """The parent's lifeline: a line "stop", or the pipe closing, stops the run."""
        pending = b""
        try:
            while True:
                data = os.read(0, 4096)
                if not data:
                    self.cancel_reason = self.cancel_reason or CALLER_GONE
                    break
                pending += data
                if b"stop" in pending.split(b"\n")[:-1] or pending.strip() == b"stop":
                    self.cancel_reason = self.cancel_reason or "stopped by the user"
                    break
                pending = pending[-64:]
        except OSError:
            self.cancel_reason = self.cancel_reason or CALLER_GONE
        self.cancel.set()

    def run(self):
        for name in ("SIGTERM", "SIGINT", "SIGHUP", "SIGBREAK"):
            sig = getattr(signal, name, None)
            if sig is not None:
                try:
                    signal.signal(sig, self._on_signal)
                except (OSError, ValueError):
                    pass
        try:
            tracker = make_tracker(self.memory, self.job.get("mechanism", "auto"))
        except OSError as e:
            return self._runner_error("cannot set up the limits: {}".format(e))
        try:
            return self._run(tracker)
        finally:
            tracker.close()

    def _runner_error(self, message):
        return {"protocol": PROTOCOL, "ok": False, "error": {"kind": "runner", "message": message},
                "elapsedMs": 0, "peakMemoryBytes": 0, "notices": self.notices}

    def _spawn(self, marker):
        args = [sys.executable, "-I", "-u", THIS_FILE, "--child", self.job_path, self.child_result_path]
        name, _, value = marker.partition("=")
        env = dict(os.environ)
        env[name] = value
        kwargs = dict(stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                      cwd=self.job.get("cwd") or None, close_fds=True, env=env)
        if IS_WINDOWS:
            kwargs["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP | getattr(subprocess, "CREATE_NO_WINDOW", 0)
        else:
            kwargs["start_new_session"] = True
        return subprocess.Popen(args, **kwargs)

    def _run(self, tracker):
        import uuid

        marker = "TOOLDEF_RUN_ID=" + uuid.uuid4().hex
        if hasattr(tracker, "marker"):
            tracker.marker = marker
        try:
            proc = self._spawn(marker)
        except OSError as e:
            return self._runner_error("cannot start Python ({}): {}".format(sys.executable, e))
        pumps = []
        for src, dst in ((proc.stdout, sys.stdout.buffer), (proc.stderr, sys.stderr.buffer)):
            if IS_LINUX:
                try:
                    import fcntl

                    fcntl.fcntl(src.fileno(), 1031, 1 << 20)  # F_SETPIPE_SZ: fewer wake-ups on floods
                except (ImportError, OSError):
                    pass
            fd = os.dup(src.fileno())
            src.close()
            t = threading.Thread(target=self.output.pump, args=(fd, dst), daemon=True)
            t.start()
            pumps.append(t)
        try:
            tracker.attach(proc)
        except OSError as e:
            proc.kill()
            tracker.kill_all()
            return self._runner_error("cannot apply the limits to the tool: {}".format(e))
        if self.job.get("stdinControl"):
            threading.Thread(target=self._watch_stdin, daemon=True).start()

        start = time.monotonic()
        try:
            proc.stdin.write(GO)
            proc.stdin.close()
        except OSError:
            pass  # the child died already: reported from its exit status below
        deadline = start + self.timeout
        peak = 0
        status = None
        limit = None
        limit_detail = ""
        interval = POLL_SECONDS
        while True:
            reaped = tracker.reap()
            if proc.pid in reaped:
                status = reaped[proc.pid]
                break
            now = time.monotonic()
            if now >= deadline:
                limit = "time"
                break
            if self.cancel.is_set():
                break
            t0 = time.monotonic()
            used = tracker.sample()
            if tracker.kernel_memory_kill():
                limit = "memory"
                break
            if not tracker.enforces_memory() and used > self.memory:
                used = tracker.confirm(used)
                if used > self.memory:
                    peak = max(peak, used)
                    count = len(getattr(tracker, "_last", {})) or 1
                    limit = "memory"
                    limit_detail = " ({} in use by {} process{})".format(
                        _fmt_mb(used), count, "" if count == 1 else "es")
                    break
            peak = max(peak, used)
            cost = time.monotonic() - t0
            interval = max(POLL_SECONDS, min(1.0, cost * 5))  # never spend more than ~20% of a core
            self.cancel.wait(max(0.0, min(interval, deadline - time.monotonic())))
        stopped_at = time.monotonic()
        elapsed = stopped_at - start
        if status is not None and tracker.kernel_memory_kill():
            limit = "memory"
        cancelled = limit is None and status is None
        killed = tracker.kill_all()
        if status is None:
            status = tracker.statuses.get(proc.pid)
        proc.returncode = 0 if status is None else status  # reaped by us, not by Popen
        kernel_peak = tracker.kernel_peak()
        if kernel_peak:
            peak = max(peak, kernel_peak)
        drain_deadline = time.monotonic() + 5
        for t in pumps:
            t.join(max(0.0, drain_deadline - time.monotonic()))
        if any(t.is_alive() for t in pumps):
            self.notices.append("the tool's output pipes stayed open after every process was stopped")

        result = {
            "protocol": PROTOCOL,
            "ok": False,
            "elapsedMs": int(round(elapsed * 1000)),
            "peakMemoryBytes": int(peak),
            "mechanism": tracker.name,
            "mechanismNote": tracker.note,
            "outputBytes": self.output.total,
            "outputTruncated": self.output.truncated,
            "notices": self.notices,
        }
        if self.output.truncated:
            self.notices.append(
                "The tool wrote {} of output; only the first {} was shown.".format(
                    _fmt_mb(self.output.total), _fmt_mb(self.output.cap)))
        others = [k for k in killed if k[0] != proc.pid]
        if limit or cancelled:
            if limit == "time":
                msg = "The tool was stopped: it ran longer than the time limit of {}.".format(_fmt_seconds(self.timeout))
            elif limit == "memory":
                msg = "The tool was stopped after {}: its processes used more than the memory limit of {}{}.".format(
                    _fmt_seconds(elapsed), _fmt_mb(self.memory), limit_detail)
            else:
                msg = "The run was stopped after {}: {}.".format(_fmt_seconds(elapsed), self.cancel_reason or "cancelled")
            result["error"] = {"kind": "limit" if limit else "cancelled", "message": msg}
            if limit:
                result["limit"] = limit
                result["limitAtMs"] = result["elapsedMs"]
            if killed:
                result["killed"] = [{"pid": p, "command": c} for p, c in killed]
            return result

        if others:
            result["leftovers"] = [{"pid": p, "command": c} for p, c in others]
            self.notices.append(
                "{} process{} the tool started {} still running after execute ended and {} killed: {}.".format(
                    len(others), "" if len(others) == 1 else "es", "was" if len(others) == 1 else "were",
                    "was" if len(others) == 1 else "were",
                    ", ".join("pid {} ({})".format(p, c[:80]) for p, c in others[:10])))
        child = self._read_child_result()
        if isinstance(child, dict) and child.get("ok") is True:
            result["ok"] = True
            result["result"] = child.get("result", "")
            return result
        if isinstance(child, dict):
            err = dict((k, v) for k, v in child.items() if k not in ("ok", "kind"))
            err["kind"] = child.get("kind", "runner")
            result["error"] = err
            return result
        if child == "too-large":
            result["error"] = {"kind": "result-too-large",
                               "message": "execute returned a string larger than {}; the local runner does not pass it back.".format(
                                   _fmt_mb(RESULT_CAP))}
            return result
        result["error"] = self._exit_error(status)
        return result

    def _read_child_result(self):
        try:
            if os.path.getsize(self.child_result_path) > RESULT_CAP:
                return "too-large"
            with open(self.child_result_path, "r", encoding="utf-8") as f:
                return json.load(f)
        except (OSError, ValueError):
            return None

    @staticmethod
    def _exit_error(status):
        if status is None:
            return {"kind": "exited", "message": "The tool's process ended before execute returned."}
        if IS_WINDOWS:
            code = status
            return {"kind": "exited", "exitCode": code,
                    "message": "The tool exited with status {} before execute returned (sys.exit or os._exit?).".format(code)}
        if os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            return {"kind": "exited", "signal": _signal_name(sig),
                    "message": "The tool's process was killed by {} before execute returned.".format(_signal_name(sig))}
        code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else status
        return {"kind": "exited", "exitCode": code,
                "message": "The tool exited with status {} before execute returned (os._exit or a crash?).".format(code)}


def main(argv):
    if len(argv) == 4 and argv[1] == "--child":
        child_main(argv[2], argv[3])
        return 0
    if len(argv) != 2 or argv[1].startswith("-"):
        sys.stderr.write("usage: {} JOB.json\n".format(os.path.basename(argv[0])))
        return 2
    job_path = os.path.abspath(argv[1])
    try:
        with open(job_path, "r", encoding="utf-8") as f:
            job = json.load(f)
        if job.get("protocol") != PROTOCOL:
            raise ValueError("job protocol {} is not {}".format(job.get("protocol"), PROTOCOL))
        result_path = job["resultPath"]
        supervisor = Supervisor(job, job_path)
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.stderr.write("{}cannot read the job {}: {}\n".format(NOTICE_PREFIX, job_path, e))
        return 2
    try:
        result = supervisor.run()
    except Exception as e:  # report, never die silently
        import traceback

        result = supervisor._runner_error("the runner failed: {}".format(e))
        result["error"]["traceback"] = traceback.format_exc()
    if supervisor.cancel_reason == CALLER_GONE:
        _remove_job(job_path, job)  # nobody will read the result; the job may hold secrets
    else:
        _write_json_atomic(result_path, result)
    return 0


def _remove_job(job_path, job):
    """Removes what the caller created for the job (its directory, when it is the usual layout)."""
    import shutil

    job_dir = os.path.dirname(job_path)
    for path in (job_path, job.get("resultPath"), job.get("childResultPath")):
        try:
            if path:
                os.remove(path)
        except OSError:
            pass
    if job.get("cwd") and os.path.abspath(job["cwd"]) == os.path.join(job_dir, "work"):
        shutil.rmtree(job["cwd"], ignore_errors=True)
    try:
        os.rmdir(job_dir)
    except OSError:
        pass


if __name__ == "__main__":
    status = main(sys.argv)
    for _stream in (sys.stdout, sys.stderr):
        try:
            _stream.flush()
        except Exception:
            pass
    # Not sys.exit: a daemon thread may still be blocked reading the caller's pipe.
    os._exit(status)
