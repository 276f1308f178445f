"""Running the `marrow` binary under test, and the Report collecting one unit of work's checks."""

import json
import os
import re
import subprocess
import time


class Marrow:
    def __init__(self, exe):
        self.exe = os.path.abspath(exe)

    def run(self, args, timeout=300, simd=None):
        """Runs marrow (with MARROW_SIMD=simd when given); waits for the binary while it is being
        relinked (it may vanish briefly)."""
        env = None
        if simd is not None:
            env = dict(os.environ, MARROW_SIMD=simd)
        for attempt in range(20):
            if not os.path.exists(self.exe):
                if attempt == 0:
                    print(f"waiting for {self.exe} (being relinked?)", flush=True)
                time.sleep(30)
                continue
            try:
                p = subprocess.run([self.exe] + [str(a) for a in args], capture_output=True, timeout=timeout, env=env)
            except (FileNotFoundError, PermissionError, OSError) as e:
                if attempt == 0:
                    print(f"cannot run {self.exe} ({e}); retrying in 30 s", flush=True)
                time.sleep(30)
                continue
            return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
        raise RuntimeError(f"{self.exe} stayed unavailable")


_marrow = None  # the binary under test, set once by use() before any check runs


def use(exe):
    global _marrow
    _marrow = Marrow(exe)


def run(args, simd=None):
    """(exit code, stdout, stderr) of the binary under test."""
    return _marrow.run(args, simd=simd)


def cmdline(args, simd=None):
    def q(a):
        a = str(a)
        return a if re.fullmatch(r"[\w@%+=:,./|-]+", a) else "'" + a.replace("'", "'\\''") + "'"
    return (f"MARROW_SIMD={simd} " if simd else "") + "marrow " + " ".join(q(a) for a in args)


def lower_simd_levels():
    """The MARROW_SIMD values (docs/runtime.md) that select other kernels than the default here:
    other native levels, and the emulated (SIMDe) ones the processor lacks natively when the build
    has them (e.g. avx512-emulated on an AVX2 host). Checked by `marrow version`."""
    rc, out, _ = run(["version"])
    m = re.search(r"SIMD level: (\S+)", out)
    if rc != 0 or not m:
        return None, []
    default, levels = m.group(1), []
    for level in ("sse2", "avx2", "avx512", "avx2-emulated", "avx512-emulated"):
        if level == default or level.split("-")[0] in [default] + levels:
            continue
        rc, out, _ = run(["version"], simd=level)
        line = next((ln for ln in out.splitlines() if ln.startswith("SIMD level:")), "")
        name, emulated = level.split("-")[0], level.endswith("emulated")
        if re.match(rf"SIMD level: {name}\b", line) and (("emulat" in line) == emulated):
            levels.append(level)
    return default, levels


class Report:
    """Checks and log lines of one unit of work (an asset in one section); printed in order."""

    def __init__(self, section, name, simd=None):
        self.section, self.name, self.simd = section, name, simd
        if simd is not None:
            self.name += f" [MARROW_SIMD={simd}]"
        self.lines = []
        self.passed = 0
        self.failed = 0

    def check(self, ok, what, detail=""):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            self.lines.append(f"FAIL [{self.section}] {self.name}: {what}" + (f"\n       {detail}" if detail else ""))
        return ok

    def note(self, text):
        self.lines.append(f"     [{self.section}] {self.name}: {text}")

    def run(self, args, what=None, expect_rc=0):
        """Runs marrow and checks its exit code; returns (ok, stdout, stderr)."""
        rc, out, err = run(args, simd=self.simd)
        ok = self.check(rc == expect_rc, what or f"`{cmdline(args, self.simd)}` exits {expect_rc}",
                        f"`{cmdline(args, self.simd)}` exited {rc}; stderr: {err.strip()[:600]}")
        return ok, out, err

    def run_json(self, args, what=None):
        ok, out, err = self.run(args, what)
        if not ok:
            return None
        try:
            return json.loads(out)
        except ValueError as e:
            self.check(False, f"`{cmdline(args, self.simd)}` prints JSON", f"{e}; stdout starts {out[:200]!r}")
            return None
