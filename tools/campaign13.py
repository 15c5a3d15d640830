"""Re-run issue 13's campaign of bad inputs and faults against the installed CLI and library.

Every input the issue lists (items 1-17) runs in a fresh temporary directory, against
``bleu-conformance`` next to this Python (a subprocess with a timeout), and is classified:
*well* (a clear error naming the file/field/case or a recorded error state, the documented
exit status, a complete report, no traceback, no hang past its timeout) or *badly*, with the
reason. Prints one line per input and a table item -> tried -> well.

    python -m tools.campaign13            # everything (a few minutes on 2 cores)
    python -m tools.campaign13 --item 9   # one item (repeatable)

The faulty implementations, the protocol program and the fixtures are written here, not
taken from the test suite, so the campaign is independent of the tests it audits. Expected
values in the two-case fixture follow from the definition (identical texts score 1, texts
with no common word score 0). Inputs that need an unprivileged user (unreadable files,
read-only directories) run as ``nobody`` through ``setpriv`` when this runs as root.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

__all__ = ["PROBES", "Ctx", "Probe", "main"]

BIN = Path(sys.executable).with_name("bleu-conformance")
NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

GOOD_YAML = """\
suite: campaign13
description: Two cases whose answers follow from the definition.
cases:
  - id: camp.exact
    description: hypothesis identical to its reference
    source: Papineni et al. 2002 (identical texts score 1)
    tags: [exact-match]
    level: corpus
    config: {}
    input:
      format: raw
      segments:
        - hypothesis: the cat sat on the mat
          references: [the cat sat on the mat]
    expected:
      papineni2002:
        score: 1.0
        tolerance: {abs: 1.0e-12}
        counts: [6, 5, 4, 3]
        totals: [6, 5, 4, 3]
        bp: 1.0
        hyp_len: 6
        ref_len: 6
  - id: camp.disjoint
    description: no word in common
    source: Papineni et al. 2002 (no matching unigram scores 0)
    tags: [zero-precision]
    level: corpus
    config: {}
    input:
      format: raw
      segments:
        - hypothesis: w x y z
          references: [a b c d]
    expected:
      papineni2002:
        score: 0.0
        tolerance: {abs: 1.0e-12}
        counts: [0, 0, 0, 0]
        totals: [4, 3, 2, 1]
        bp: 1.0
        hyp_len: 4
        ref_len: 4
"""
CASES = 2

FAKES = """\
import ctypes, os, subprocess, sys, time
from bleu_impl import corpus_bleu

def _pid():
    path = os.environ.get("CAMP_PIDS")
    if path:
        with open(path, "a") as f:
            f.write(f"{os.getpid()}\\n")

def good(h, r, **c):
    return corpus_bleu(h, r, **c).score

def _stats(h, r, **c):
    res = corpus_bleu(h, r, **c)
    return {"score": res.score, "bp": res.bp, "hyp_len": res.hyp_len, "ref_len": res.ref_len}

def exit_zero(h, r, **c): sys.exit(0)
def exit_three(h, r, **c): sys.exit(3)
def os_exit(h, r, **c): os._exit(0)
def segfault(h, r, **c): ctypes.string_at(0)
def keyboard_interrupt(h, r, **c): raise KeyboardInterrupt
def raises(h, r, **c): raise RuntimeError("campaign: this implementation always raises")
def spin(h, r, **c):
    _pid()
    while True:
        pass
def prints(h, r, **c):
    print("chatter from the implementation")
    os.write(1, b"raw chatter on fd 1\\n")
    return good(h, r, **c)
def nan(h, r, **c): return float("nan")
def inf(h, r, **c): return float("inf")
def bp_word(h, r, **c): return {**_stats(h, r, **c), "bp": "one"}
def bp_nan(h, r, **c): return {**_stats(h, r, **c), "bp": float("nan")}
def hyp_len_nan(h, r, **c): return {**_stats(h, r, **c), "hyp_len": float("nan")}
def ref_len_nan(h, r, **c): return {**_stats(h, r, **c), "ref_len": float("nan")}

# beyond the issue's list
def x_true(h, r, **c): return True
def x_text(h, r, **c): return str(good(h, r, **c))
def x_huge(h, r, **c): return 10**400
def x_negative(h, r, **c): return -0.5
def x_half_counts(h, r, **c):
    s = corpus_bleu(h, r, **c)
    return {"score": s.score, "counts": [x + 0.5 for x in s.counts], "totals": list(s.totals)}
def x_text_counts(h, r, **c):
    s = corpus_bleu(h, r, **c)
    return {"score": s.score, "counts": [str(x) for x in s.counts], "totals": list(s.totals)}
def x_huge_bp(h, r, **c): return {**_stats(h, r, **c), "bp": 10**400}
def x_numpy(h, r, **c):
    import numpy as np
    s = corpus_bleu(h, r, **c)
    return {"score": np.float64(s.score), "bp": np.float32(s.bp), "hyp_len": np.int64(s.hyp_len),
            "ref_len": np.int32(s.ref_len), "counts": np.array(s.counts)}
class XBase(BaseException): pass
def x_base(h, r, **c): raise XBase("a BaseException of its own")
class XUnprintable(Exception):
    def __str__(self): raise RuntimeError("no str")
def x_unprintable(h, r, **c): raise XUnprintable()
def x_flood(h, r, **c):
    for _ in range(200):
        sys.stderr.write("x" * 1_000_000)
    sys.stderr.write("END-OF-FLOOD")
    sys.stderr.flush()
    return good(h, r, **c)
def x_controls(h, r, **c):
    raise RuntimeError("ESC \\x1b[31m NUL \\x00 BEL \\x07 RLO \\u202e")
def x_surrogate(h, r, **c):
    name = os.fsdecode(b"model-\\xff.bin")
    raise FileNotFoundError("no such file: " + name)
def x_marks(h, r, **c):
    _pid()
    return good(h, r, **c)
def _on_channel(payload):
    for fd in range(3, 32):
        try:
            os.write(fd, payload)
        except OSError:
            pass
def x_forge(h, r, **c):
    import pickle, struct
    target = os.environ["CAMP_PIDS"] + ".forged"
    class Payload:
        def __reduce__(self):
            return (os.system, ("touch " + target,))
    data = pickle.dumps((1, "ok", Payload()))
    _on_channel(struct.pack(">I", len(data)) + data)
    time.sleep(0.5)
    return good(h, r, **c)
def x_stray(h, r, **c):
    import pickle, struct
    data = pickle.dumps(("ok", "not an answer"))
    _on_channel(struct.pack(">I", len(data)) + data)
    time.sleep(0.5)
    return good(h, r, **c)
"""

AT_IMPORT = "import sys\nsys.exit(0)\ndef bleu(h, r, **c):\n    return 1.0\n"

PROGRAM = """\
import json, os, subprocess, sys, time
from bleu_impl import BleuError, corpus_bleu
mode, _, extra = (sys.argv[1] if len(sys.argv) > 1 else "good").partition(":")
patch = json.loads(extra) if extra and mode != "raw" else {}

def pid(p):
    path = os.environ.get("CAMP_PIDS")
    if path:
        with open(path, "a") as f:
            f.write(f"{p}\\n")

for line in sys.stdin:
    msg = json.loads(line)
    if msg["cmd"] == "hello":
        impl = {"name": "camp-" + mode, "version": "1", "knobs": None, "expect": ["papineni2002"]}
        if mode == "hello":
            impl.update(patch)
        print(json.dumps({"protocol": 1, "implementation": impl}), flush=True)
        if mode == "deaf":  # beyond the issue's list: never reads a request
            time.sleep(300)
        continue
    if msg["cmd"] != "score":
        break
    if mode == "hang":
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
        pid(child.pid)
        pid(os.getpid())
        time.sleep(300)
    if mode == "busy":
        pid(os.getpid())
        while True:
            pass
    req = msg["request"]
    res = corpus_bleu(req["hypotheses"], req["references"], **req["config"])
    reply = {"seq": msg["seq"], "score": res.score, "bp": res.bp,
             "hyp_len": res.hyp_len, "ref_len": res.ref_len}
    if mode == "answer":
        reply.update(patch)
    if mode == "raw":  # beyond the issue's list: a line as written, {seq} filled in
        print(extra.replace("{seq}", str(msg["seq"])), flush=True)
        continue
    if mode == "endless":
        sys.stdout.write("x" * 300_000_000)
        sys.stdout.flush()
        time.sleep(300)
    if mode == "flood":
        for _ in range(200):
            sys.stderr.write("y" * 1_000_000)
        sys.stderr.write("END-OF-FLOOD")
        sys.stderr.flush()
    print(json.dumps(reply), flush=True)
"""


@dataclass
class Proc:
    rc: int | None  # None: killed at the timeout
    out: str
    err: str
    secs: float

    @property
    def clean(self) -> bool:
        return self.rc is not None and "Traceback" not in self.err


@dataclass
class Ctx:
    """A fresh directory holding the fixture, the fakes and the protocol program."""

    dir: Path

    @property
    def good(self) -> str:
        return str(self.dir / "good.yaml")

    @property
    def pids(self) -> Path:
        return self.dir / "pids"

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["PYTHONPATH"] = str(self.dir)
        env["CAMP_PIDS"] = str(self.pids)
        env["BLEU_CONFORMANCE_HEARTBEAT"] = "0"
        return env

    def jsonl(self, mode: str, patch: dict[str, Any] | None = None) -> str:
        arg = mode if patch is None else f"{mode}:{json.dumps(patch)}"
        return f"jsonl:{shlex.quote(sys.executable)} {self.dir / 'prog.py'} {shlex.quote(arg)}"

    def write(self, name: str, text: str) -> Path:
        path = self.dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def cli(
        self,
        *argv: str,
        timeout: float = 60,
        stdin: bytes | None = b"",
        nobody: bool = False,
        **popen: Any,
    ) -> Proc:
        cmd = [*(NOBODY if nobody and os.geteuid() == 0 else []), str(BIN), *argv]
        start = time.monotonic()
        proc = subprocess.Popen(
            cmd,
            cwd=self.dir,
            env=self.env(),
            stdin=subprocess.PIPE if stdin is not None else popen.pop("stdin_file", None),
            stdout=popen.pop("stdout", subprocess.PIPE),
            stderr=subprocess.PIPE,
            start_new_session=True,
            **popen,
        )
        try:
            out, err = proc.communicate(stdin, timeout=timeout)
            rc: int | None = proc.returncode
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
            rc = None
        text = (out or b"").decode("utf-8", "replace"), (err or b"").decode("utf-8", "replace")
        return Proc(rc, *text, time.monotonic() - start)

    def run_json(self, *argv: str, fixtures: str | None = None, **kw: Any) -> tuple[Proc, Any]:
        p = self.cli("run", "--fixtures", fixtures or self.good, "--format", "json", *argv, **kw)
        try:
            return p, json.loads(p.out)
        except ValueError:
            return p, None


Check = Callable[[Ctx], "tuple[bool, str]"]


@dataclass
class Probe:
    item: int
    name: str
    check: Check


PROBES: list[Probe] = []


def probe(item: int, name: str) -> Callable[[Check], Check]:
    def register(check: Check) -> Check:
        PROBES.append(Probe(item, name, check))
        return check

    return register


def verdict(p: Proc, ok: bool, what: str) -> tuple[bool, str]:
    """``ok`` and no traceback and no timeout; the note says what was seen."""
    if p.rc is None:
        return False, f"hung: killed after {p.secs:.0f} s"
    if "Traceback" in p.err:  # the harness's own (an implementation's is recorded in results)
        line = [x for x in p.err.strip().splitlines() if x][-1:]
        return False, f"traceback (exit {p.rc}): {line}"
    seen = f"exit {p.rc}; {what}"
    return ok, seen


def gone(pids: list[int], seconds: float = 10) -> list[int]:
    deadline = time.monotonic() + seconds
    while True:
        left = []
        for pid in pids:
            try:
                os.kill(pid, 0)
                stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
                if stat != "Z":
                    left.append(pid)
            except (ProcessLookupError, OSError):
                pass
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.2)


def _stopped(harness: subprocess.Popen[bytes], signum: int, seconds: float) -> bool:
    """Send ``signum``; True when the harness ended within ``seconds`` (else it is killed)."""
    harness.send_signal(signum)
    try:
        harness.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        harness.kill()
        return False
    return True


def read_pids(ctx: Ctx) -> list[int]:
    return [int(x) for x in ctx.pids.read_text().split()] if ctx.pids.exists() else []


# ---- 1. implementations that end their process ----------------------------------------

FATAL = {
    "sys.exit(0)": "cf13:exit_zero",
    "sys.exit(3)": "cf13:exit_three",
    "os._exit": "cf13:os_exit",
    "segfault": "cf13:segfault",
    "KeyboardInterrupt": "cf13:keyboard_interrupt",
    "sys.exit at import": "cf13_import:bleu",
}


def _fatal_run(spec: str) -> Check:
    def check(ctx: Ctx) -> tuple[bool, str]:
        p, report = ctx.run_json("--impl", spec, "--impl", "cf13:good")
        if report is None:
            return verdict(p, False, "no JSON report")
        outcomes: dict[str, list[str]] = {}
        for r in report["results"]:
            outcomes.setdefault(r["implementation"], []).append(r["outcome"])
        bad = outcomes.get(spec, [])
        ok = (
            p.rc == 1
            and bad == ["error"] * CASES
            and outcomes.get("cf13:good") == ["pass"] * CASES
            and report.get("complete") is True
        )
        return verdict(p, ok, f"faulty: {bad}, good: {outcomes.get('cf13:good')}")

    return check


def _fatal_compare(spec: str) -> Check:
    def check(ctx: Ctx) -> tuple[bool, str]:
        argv = ["--fixtures", ctx.good, "--format", "json", "--impl", "cf13:good"]
        p = ctx.cli("compare", *argv, "--impl", spec)
        if p.rc == 2 and "cannot start the implementation" in p.err:  # a startup error
            return verdict(p, True, p.err.strip()[-90:])
        try:
            pairs = json.loads(p.out)["pairs"]
        except (ValueError, KeyError):
            return verdict(p, False, "no JSON report")
        verdicts = [x["verdict"] for x in pairs]
        ok = p.rc in (0, 1) and verdicts == ["errored"] * CASES
        return verdict(p, ok, f"verdicts {verdicts}")

    return check


for _name, _spec in FATAL.items():
    probe(1, f"run: {_name}")(_fatal_run(_spec))
    probe(1, f"compare: {_name}")(_fatal_compare(_spec))


# ---- 2. a busy loop with --timeout 1, then a correct implementation -------------------


@probe(2, "busy loop --timeout 1, then a good impl")
def _busy(ctx: Ctx) -> tuple[bool, str]:
    p, report = ctx.run_json("--impl", "cf13:spin", "--impl", "cf13:good", "--timeout", "1")
    if report is None:
        return verdict(p, False, "no JSON report")
    spin = [r["outcome"] for r in report["results"] if r["implementation"] == "cf13:spin"]
    good = [r["outcome"] for r in report["results"] if r["implementation"] == "cf13:good"]
    left = gone(read_pids(ctx))
    ok = spin == ["error"] * CASES and good == ["pass"] * CASES and not left and p.secs < 30
    return verdict(p, ok, f"spin {spin}, good {good}, {p.secs:.1f} s, still running {left}")


# ---- 3. non-finite scores and tolerances: every report renders --------------------------

FORMATS = ("table", "markdown", "json", "html")


def _renders(ctx: Ctx, argv: list[str], fixtures: str, want: str) -> tuple[bool, str]:
    """Every format of ``run`` and of ``report`` on its log renders; the faulty case is
    ``want`` (an outcome) in the JSON report."""
    log, junit = str(ctx.dir / "run.jsonl"), str(ctx.dir / "junit.xml")
    seen = []
    for fmt in FORMATS:
        extra = ["--output", log, "--junit-xml", junit] if fmt == "table" else []
        p = ctx.cli("run", "--fixtures", fixtures, *argv, "--format", fmt, *extra)
        if not p.clean or p.rc not in (1, 2):
            return verdict(p, False, f"run --format {fmt}")
        if fmt == "json":
            outcomes = [r["outcome"] for r in json.loads(p.out)["results"]]
            seen.append(f"outcomes {outcomes}")
            if want not in outcomes:
                return verdict(p, False, f"outcomes {outcomes}, wanted {want}")
    if not Path(junit).exists():
        return False, "no JUnit written"
    for fmt in FORMATS:
        p = ctx.cli("report", log, "--format", fmt)
        if not p.clean or p.rc not in (1, 2):
            return verdict(p, False, f"report --format {fmt}")
    p = ctx.cli("report", log, "--junit-xml", str(ctx.dir / "again.xml"))
    return verdict(p, p.rc in (1, 2), f"every format renders; {'; '.join(seen)}")


@probe(3, "python score NaN")
def _py_nan(ctx: Ctx) -> tuple[bool, str]:
    return _renders(ctx, ["--impl", "cf13:nan"], ctx.good, "error")


@probe(3, "python score inf")
def _py_inf(ctx: Ctx) -> tuple[bool, str]:
    return _renders(ctx, ["--impl", "cf13:inf"], ctx.good, "error")


@probe(3, 'JSONL "score": NaN')
def _jsonl_nan(ctx: Ctx) -> tuple[bool, str]:
    spec = ctx.jsonl("answer", {"score": float("nan")})
    return _renders(ctx, ["--impl", spec], ctx.good, "error")


@probe(3, 'JSONL "score": Infinity')
def _jsonl_inf(ctx: Ctx) -> tuple[bool, str]:
    spec = ctx.jsonl("answer", {"score": float("inf")})
    return _renders(ctx, ["--impl", spec], ctx.good, "error")


@probe(3, "fixture tolerance {abs: .nan}")
def _tol_nan(ctx: Ctx) -> tuple[bool, str]:
    bad = ctx.write("cases/bad.yaml", GOOD_YAML.replace("{abs: 1.0e-12}", "{abs: .nan}", 1))
    ctx.write("cases/good.yaml", GOOD_YAML.replace("camp.", "ok."))
    ok, note = _renders(ctx, ["--impl", "cf13:good"], str(bad.parent), "pass")
    if not ok:
        return ok, note
    p = ctx.cli("validate", str(bad))
    return verdict(p, p.rc == 1 and "bad.yaml:" in p.out + p.err, "validate names the file")


# ---- 4. protocol fields with the wrong type or value -----------------------------------

FIELDS = {
    "scale: 0": ("scale", 0),
    'scale: "100"': ("scale", "100"),
    'precision: "two"': ("precision", "two"),
    'levels: "corpus"': ("levels", "corpus"),
    'expect: "papineni2002"': ("expect", "papineni2002"),
}


def _field_check(p: Proc, report: Any, field: str, value: Any) -> tuple[bool, str]:
    if report is None:
        return verdict(p, False, "no JSON report")
    outcomes = [r["outcome"] for r in report["results"]]
    reasons = {r.get("reason", "")[:90] for r in report["results"] if r["outcome"] == "error"}
    if field == "expect":  # a string is one key: the cases are checked, not skipped
        return verdict(p, p.rc == 0 and outcomes == ["pass"] * CASES, f"outcomes {outcomes}")
    ok = p.rc == 1 and outcomes == ["error"] * CASES and all(field in r for r in reasons)
    return verdict(p, ok, f"outcomes {outcomes}, reasons {sorted(reasons)}")


def _hello(field: str, value: Any) -> Check:
    def check(ctx: Ctx) -> tuple[bool, str]:
        p, report = ctx.run_json("--impl", ctx.jsonl("hello", {field: value}))
        return _field_check(p, report, field, value)

    return check


def _adapter_file(field: str, value: Any) -> Check:
    def check(ctx: Ctx) -> tuple[bool, str]:
        text = f"kind: python\ncallable: cf13:good\n{field}: {json.dumps(value)}\n"
        adapter = ctx.write("adapter.yaml", text)
        p, report = ctx.run_json("--impl", str(adapter))
        return _field_check(p, report, field, value)

    return check


for _label, (_field, _value) in FIELDS.items():
    probe(4, f"hello {_label}")(_hello(_field, _value))
    probe(4, f"adapter file {_label}")(_adapter_file(_field, _value))


def _answer_bp_word(spec: Callable[[Ctx], str]) -> Check:
    def check(ctx: Ctx) -> tuple[bool, str]:
        p, report = ctx.run_json("--impl", spec(ctx))
        if report is None:
            return verdict(p, False, "no JSON report")
        rows = [(r["outcome"], r.get("reason", "")[:70]) for r in report["results"]]
        ok = p.rc == 1 and all(o == "error" and "bp" in why for o, why in rows)
        return verdict(p, ok, f"{rows}")

    return check


probe(4, 'python answer "bp": "one"')(_answer_bp_word(lambda c: "cf13:bp_word"))
probe(4, 'JSONL answer "bp": "one"')(_answer_bp_word(lambda c: c.jsonl("answer", {"bp": "one"})))


# ---- 5. NaN statistics are never a pass ---------------------------------------------------


def _nan_field(spec: Callable[[Ctx], str], field: str) -> Check:
    def check(ctx: Ctx) -> tuple[bool, str]:
        p, report = ctx.run_json("--impl", spec(ctx))
        if report is None:
            return verdict(p, False, "no JSON report")
        rows = [(r["outcome"], r.get("reason", "")[:60]) for r in report["results"]]
        ok = p.rc == 1 and all(o in ("error", "fail") for o, _ in rows)
        return verdict(p, ok, f"{rows}")

    return check


for _f in ("bp", "hyp_len", "ref_len"):
    probe(5, f"python answer {_f} NaN")(_nan_field(lambda c, f=_f: f"cf13:{f}_nan", _f))
    probe(5, f"JSONL answer {_f} NaN")(
        _nan_field(lambda c, f=_f: c.jsonl("answer", {f: float("nan")}), _f)
    )


@probe(5, "fixture bp: .nan")
def _fixture_bp_nan(ctx: Ctx) -> tuple[bool, str]:
    bad = ctx.write("bad.yaml", GOOD_YAML.replace("bp: 1.0", "bp: .nan", 1))
    p = ctx.cli("validate", str(bad))
    return verdict(p, p.rc == 1 and "bad.yaml:" in p.out + p.err, (p.out + p.err)[-160:])


# ---- 6. errors are never evidence -----------------------------------------------------------


@probe(6, "identify --impl always-raising")
def _identify(ctx: Ctx) -> tuple[bool, str]:
    p = ctx.cli("identify", "--impl", "cf13:raises", "-k", "paper", "--generate", "3")
    ok = p.rc in (0, 2) and "no profile matches" in p.out and "(100%)" not in p.out
    return verdict(p, ok, " | ".join(p.out.strip().splitlines()[:3]))


@probe(6, "compare always-raising vs bleu_impl")
def _compare_raising(ctx: Ctx) -> tuple[bool, str]:
    argv = ["--impl", "cf13:raises", "--impl", "bleu_impl", "-k", "paper", "--format", "json"]
    p = ctx.cli("compare", *argv)
    try:
        pairs = json.loads(p.out)["pairs"]
    except (ValueError, KeyError):
        return verdict(p, False, "no JSON report")
    explained = [x for x in pairs if x.get("changes") or "ref_length" in str(x.get("cause"))]
    causes = sorted({str(x.get("cause", x["verdict"]))[:40] for x in pairs})
    return verdict(p, p.rc == 0 and pairs != [] and not explained, f"causes {causes}")


# ---- 7. printing to stdout ------------------------------------------------------------------


@probe(7, "run --format json, impl prints to stdout")
def _prints_run(ctx: Ctx) -> tuple[bool, str]:
    p, report = ctx.run_json("--impl", "cf13:prints")
    ok = report is not None and [r["outcome"] for r in report["results"]] == ["pass"] * CASES
    return verdict(p, ok and p.rc == 0, "JSON parses" if report else f"stdout {p.out[:60]!r}")


@probe(7, "compare --format json, impl prints to stdout")
def _prints_compare(ctx: Ctx) -> tuple[bool, str]:
    argv = ["--fixtures", ctx.good, "--impl", "cf13:prints", "--impl", "cf13:good"]
    p = ctx.cli("compare", *argv, "--format", "json")
    try:
        verdicts = [x["verdict"] for x in json.loads(p.out)["pairs"]]
    except (ValueError, KeyError):
        return verdict(p, False, f"stdout {p.out[:60]!r}")
    return verdict(p, p.rc == 0 and "errored" not in verdicts, f"verdicts {verdicts}")


# ---- 8. process groups, SIGTERM, duplicate names -----------------------------------------


@probe(8, "jsonl:bash -c '<hanging program>; true' with a child, --timeout 2")
def _bash_hang(ctx: Ctx) -> tuple[bool, str]:
    inner = ctx.jsonl("hang")[len("jsonl:") :]
    p, report = ctx.run_json(
        "--impl", f"jsonl:bash -c {shlex.quote(inner + '; true')}", "--timeout", "2"
    )
    started = read_pids(ctx)
    left = gone(started)
    reasons = [r.get("reason", "")[:40] for r in (report or {}).get("results", [])]
    ok = p.rc == 1 and reasons != [] and all("timeout" in r for r in reasons)
    return verdict(p, ok and len(started) >= 2 and not left, f"{reasons}; left {left}")


@probe(8, "command template hanging with a child, timeout 2")
def _template_hang(ctx: Ctx) -> tuple[bool, str]:
    script = f"sleep 300 & echo $! >> {ctx.pids}; echo $$ >> {ctx.pids}; sleep 300"
    adapter = ctx.write(
        "hang.yaml",
        f"kind: command\nname: hangs\ntemplate: bash -c {shlex.quote(script)}\ntimeout: 2\n",
    )
    p, report = ctx.run_json("--impl", str(adapter), "--expect", "papineni2002")
    started = read_pids(ctx)
    left = gone(started)
    reasons = [r.get("reason", "")[:40] for r in (report or {}).get("results", [])]
    ok = p.rc == 1 and reasons != [] and all("timeout" in r for r in reasons)
    return verdict(p, ok and len(started) >= 2 and not left, f"{reasons}; left {left}")


def _signal_probe(signum: signal.Signals, status: int) -> Check:
    """``signum`` to the harness while a JSONL adapter spins: exit ``status``, no adapter
    process left, the log kept."""

    def check(ctx: Ctx) -> tuple[bool, str]:
        log = ctx.dir / "run.jsonl"
        cmd = [str(BIN), "run", "--fixtures", ctx.good, "--impl", ctx.jsonl("busy")]
        harness = subprocess.Popen(
            [*cmd, "-o", str(log)],
            cwd=ctx.dir,
            env=ctx.env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 30
        while not read_pids(ctx) and time.monotonic() < deadline:
            time.sleep(0.1)
        if not _stopped(harness, signum, 30):
            return False, f"the harness ignored {signum.name}"
        left = gone(read_pids(ctx))
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        ok = harness.returncode == status and not left and log.exists()
        return ok, f"exit {harness.returncode}; adapter pids left {left}; log {log.exists()}"

    return check


probe(8, "SIGTERM to the harness while a JSONL adapter spins")(_signal_probe(signal.SIGTERM, 143))
probe(8, "(extra) SIGHUP to the harness (a closed terminal) while a JSONL adapter spins")(
    _signal_probe(signal.SIGHUP, 129)
)


@probe(8, "two --impl declaring the same name")
def _same_name(ctx: Ctx) -> tuple[bool, str]:
    a = ctx.jsonl("hello", {"name": "same"})
    b = ctx.jsonl("hello", {"name": "same", "version": "2"})
    p, report = ctx.run_json("--impl", a, "--impl", b)
    if report is None:
        return verdict(p, False, "no JSON report")
    counts = [sum(s["counts"].values()) for s in report["summary"]]
    names = [s["implementation"] for s in report["summary"]]
    ok = p.rc == 0 and len(set(names)) == 2 and counts == [CASES, CASES]
    return verdict(p, ok, f"rows {names}, counts {counts}")


# ---- 9. hostile fixture files ----------------------------------------------------------


def _laughs() -> str:
    text = 'l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n'
    for level in range(1, 10):
        text += f"l{level}: &l{level} [{', '.join([f'*l{level - 1}'] * 9)}]\n"
    return text


HOSTILE = {
    "ref_len: .inf": GOOD_YAML.replace("ref_len: 6", "ref_len: .inf", 1),
    "400-digit score": GOOD_YAML.replace("score: 1.0\n", f"score: {'9' * 400}\n", 1),
    "NUL byte": GOOD_YAML.replace("the cat sat on the mat", "the cat\0 sat", 1),
    "recursive alias": GOOD_YAML.replace("tags: [exact-match]", "tags: &a [*a]", 1),
    "1000 nested [": GOOD_YAML.replace("config: {}", "config: " + "[" * 1000 + "]" * 1000, 1),
    "billion laughs": _laughs(),
}


def _hostile_dir(ctx: Ctx, text: str) -> Path:
    ctx.write("lib/ok.yaml", GOOD_YAML.replace("camp.", "ok."))
    ctx.write("lib/zz-bad.yaml", text)
    return ctx.dir / "lib"


def _hostile(command: str, text: str) -> Check:
    def check(ctx: Ctx) -> tuple[bool, str]:
        lib = str(_hostile_dir(ctx, text))
        if command == "validate":
            p = ctx.cli("validate", lib, timeout=30)
            ok = p.rc == 1 and "zz-bad.yaml:" in p.out + p.err and "ok.yaml" not in p.out + p.err
            return verdict(p, ok, f"{p.secs:.1f} s; " + (p.out + p.err).strip()[-150:])
        if command == "run":
            p, report = ctx.run_json("--impl", "cf13:good", fixtures=lib, timeout=30)
            got = sorted(r["case_id"] for r in (report or {}).get("results", []))
            passed = [r for r in (report or {}).get("results", []) if r["outcome"] == "pass"]
            named = "zz-bad.yaml" in p.err + p.out
            return verdict(
                p, p.rc == 2 and len(passed) >= CASES and named, f"{p.secs:.1f} s; {got}"
            )
        argv = ["--fixtures", lib, "--impl", "cf13:good", "--impl", "bleu_impl", "--format", "json"]
        p = ctx.cli("compare", *argv, timeout=30)
        try:
            pairs = json.loads(p.out)["pairs"]
        except (ValueError, KeyError):
            return verdict(p, False, "no JSON report")
        named = "zz-bad.yaml" in p.err + p.out
        return verdict(p, p.rc == 2 and len(pairs) >= CASES and named, f"{len(pairs)} pairs")

    return check


for _label, _text in HOSTILE.items():
    for _command in ("validate", "run", "compare"):
        probe(9, f"{_command}: {_label}")(_hostile(_command, _text))


# ---- 10. tolerances that pass anything ---------------------------------------------------


def _wide(tolerance: str) -> Check:
    def check(ctx: Ctx) -> tuple[bool, str]:
        bad = ctx.write("bad.yaml", GOOD_YAML.replace("{abs: 1.0e-12}", tolerance, 1))
        p = ctx.cli("validate", str(bad))
        return verdict(p, p.rc == 1 and "bad.yaml:" in p.out + p.err, p.out.strip()[-140:])

    return check


for _tol in ("{abs: .inf}", "{abs: 1e+400}", "{rel: 1e300}"):
    probe(10, f"validate tolerance {_tol}")(_wide(_tol))


# ---- 11. bad fixture files and folders -----------------------------------------------------


def _run_next_to_good(kind: str) -> Check:
    def check(ctx: Ctx) -> tuple[bool, str]:
        lib = ctx.dir / "lib"
        ctx.write("lib/ok.yaml", GOOD_YAML)
        os.chmod(ctx.dir, 0o755)
        os.chmod(lib, 0o755)
        os.chmod(lib / "ok.yaml", 0o644)
        other = lib / "zz.yaml"
        if kind == "unreadable":
            other.write_text(GOOD_YAML.replace("camp.", "zz."), encoding="utf-8")
            other.chmod(0)
        elif kind == "invalid":
            other.write_text("cases: [{id: 1}]\n", encoding="utf-8")
            other.chmod(0o644)
        argv = ["--fixtures", str(lib / "ok.yaml"), "--fixtures", str(other)]
        p = ctx.cli("run", *argv, "--impl", "cf13:good", nobody=True)
        return verdict(p, p.rc == 2 and "zz.yaml" in p.err, p.err.strip()[-140:])

    return check


for _kind in ("unreadable", "invalid", "missing"):
    probe(11, f"run: {_kind} fixture file next to a good one")(_run_next_to_good(_kind))


def _validate_folder(kind: str) -> Check:
    def check(ctx: Ctx) -> tuple[bool, str]:
        folder = ctx.dir / "lib"
        folder.mkdir()
        os.chmod(ctx.dir, 0o755)
        if kind == "unreadable":
            ctx.write("lib/ok.yaml", GOOD_YAML)
            folder.chmod(0)
        elif kind == "YAML-less":
            ctx.write("lib/notes.txt", "nothing here\n")
            folder.chmod(0o755)
        p = ctx.cli("validate", str(folder), nobody=True)
        ok = p.rc == 1 and "OK" not in p.out and "cannot write" not in p.err
        return verdict(p, ok, (p.out + p.err).strip()[-140:])

    return check


for _kind in ("unreadable", "empty", "YAML-less"):
    probe(11, f"validate: {_kind} directory")(_validate_folder(_kind))


@probe(11, "(extra) run --fixtures an unreadable directory next to a good file")
def _run_locked_dir(ctx: Ctx) -> tuple[bool, str]:
    os.chmod(ctx.dir, 0o755)
    (ctx.dir / "locked").mkdir(mode=0)
    p = ctx.cli("run", "--fixtures", ctx.good, "--fixtures", "locked", "--impl", "bleu_impl",
                nobody=True)  # fmt: skip
    ok = p.rc == 2 and "cannot read this directory" in p.out and "100.0%" in p.out
    return verdict(p, ok, (p.out + p.err).strip()[-140:])


@probe(11, "(extra) validate --root an unreadable directory")
def _locked_root(ctx: Ctx) -> tuple[bool, str]:
    os.chmod(ctx.dir, 0o755)
    (ctx.dir / "locked").mkdir(mode=0)
    p = ctx.cli("validate", "--root", "locked", ctx.good, nobody=True)
    ok = p.rc == 1 and "cannot read" in p.out and "cannot write" not in p.err
    return verdict(p, ok, (p.out + p.err).strip()[-140:])


@probe(11, "fixture folder with implementations.yaml, no schema/")
def _no_schema(ctx: Ctx) -> tuple[bool, str]:
    ctx.write("lib/implementations.yaml", "implementations: {}\n")
    ctx.write("lib/cases.yaml", GOOD_YAML)
    p = ctx.cli("validate", "--root", str(ctx.dir / "lib"))
    return verdict(p, p.rc in (0, 1, 2), (p.out + p.err).strip()[-140:])


@probe(11, "non-UTF-8 implementations.yaml")
def _latin1_registry(ctx: Ctx) -> tuple[bool, str]:
    ctx.write("lib/cases.yaml", GOOD_YAML)
    (ctx.dir / "lib/implementations.yaml").write_bytes(b"# caf\xe9\nimplementations: {}\n")
    p = ctx.cli("validate", "--root", str(ctx.dir / "lib"))
    ok = p.rc in (1, 2) and "implementations.yaml" in p.out + p.err
    return verdict(p, ok, (p.out + p.err).strip()[-140:])


@probe(11, "NUL in tags.yaml")
def _nul_tags(ctx: Ctx) -> tuple[bool, str]:
    ctx.write("lib/cases.yaml", GOOD_YAML)
    (ctx.dir / "lib/tags.yaml").write_bytes(b"tags:\n  exact-match: a\x00b\n")
    p = ctx.cli("validate", "--root", str(ctx.dir / "lib"))
    ok = p.rc in (1, 2) and "tags.yaml:" in p.out + p.err
    return verdict(p, ok, (p.out + p.err).strip()[-140:])


@probe(11, "validate --root missing")
def _root_missing(ctx: Ctx) -> tuple[bool, str]:
    p = ctx.cli("validate", "--root", str(ctx.dir / "missing"))
    ok = p.rc in (1, 2) and "missing" in p.out + p.err
    return verdict(p, ok, (p.out + p.err).strip()[-140:])


# ---- 12. interrupted comparisons keep a replayable log -----------------------------------


def _interrupt_compare(signum: int, status: int) -> Check:
    def check(ctx: Ctx) -> tuple[bool, str]:
        log = ctx.dir / "cmp.jsonl"
        cmd = [str(BIN), "compare", "--generate", "500", "--no-shrink", "--output", str(log)]
        cmd += ["--impl", "bleu_impl", "--impl", "bleu_impl:nltk"]
        harness = subprocess.Popen(
            cmd, cwd=ctx.dir, env=ctx.env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if log.exists() and log.read_text().count('"kind": "pair"') >= 3:
                break
            time.sleep(0.2)
        if not _stopped(harness, signum, 60):
            return False, "the harness ignored the signal"
        if not log.exists():
            return False, f"exit {harness.returncode}; no log"
        pairs = log.read_text().count('"kind": "pair"')
        p = ctx.cli("compare", "--replay", str(log))
        ok = harness.returncode == status and p.rc == 2 and p.out.startswith("INCOMPLETE")
        return verdict(p, ok, f"harness exit {harness.returncode}, {pairs} pairs logged, replay")

    return check


probe(12, "compare --generate 500 --output, Ctrl-C")(_interrupt_compare(signal.SIGINT, 130))
probe(12, "compare --generate 500 --output, SIGTERM")(_interrupt_compare(signal.SIGTERM, 143))


# ---- 13. cut logs say so ------------------------------------------------------------------


def _cut_log(how: str) -> Check:
    def check(ctx: Ctx) -> tuple[bool, str]:
        log = ctx.dir / "run.jsonl"
        if how in ("Ctrl-C", "SIGTERM"):
            cmd = [str(BIN), "run", "--fixtures", ctx.good, "-o", str(log)]
            cmd += ["--impl", "cf13:good", "--impl", "cf13:spin", "--timeout", "60"]
            harness = subprocess.Popen(
                cmd, cwd=ctx.dir, env=ctx.env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE
            )
            deadline = time.monotonic() + 30
            while not read_pids(ctx) and time.monotonic() < deadline:
                time.sleep(0.1)
            harness.send_signal(signal.SIGINT if how == "Ctrl-C" else signal.SIGTERM)
            harness.communicate(timeout=30)
        else:
            p = ctx.cli("run", "--fixtures", ctx.good, "--impl", "cf13:good", "-o", str(log))
            lines = log.read_text().splitlines(keepends=True)
            log.write_text("".join(lines[:-2]) + lines[-2][:30], encoding="utf-8")
        notes = []
        for fmt in FORMATS:
            p = ctx.cli("report", str(log), "--format", fmt)
            marked = "INCOMPLETE" in p.out or '"complete": false' in p.out
            if not p.clean or p.rc != 2 or not marked:
                return verdict(p, False, f"report --format {fmt}: {p.out[:80]!r}")
            notes.append(fmt)
        return True, f"exit 2 and INCOMPLETE in {notes}"

    return check


for _how in ("Ctrl-C", "SIGTERM", "mid-line truncation"):
    probe(13, f"report of a log cut by {_how}")(_cut_log(_how))


@probe(13, "compare --replay of a log without pairs")
def _replay_no_pairs(ctx: Ctx) -> tuple[bool, str]:
    log = ctx.dir / "cmp.jsonl"
    ctx.cli("compare", "--fixtures", ctx.good, "--output", str(log))
    kept = [x for x in log.read_text().splitlines() if '"kind": "pair"' not in x]
    log.write_text("\n".join(kept[:-1]) + "\n", encoding="utf-8")
    p = ctx.cli("compare", "--replay", str(log))
    return verdict(p, p.rc == 2 and p.out.startswith("INCOMPLETE"), p.out[:60])


@probe(13, "run -k no-such --output old.jsonl")
def _no_such(ctx: Ctx) -> tuple[bool, str]:
    log = ctx.dir / "old.jsonl"
    ctx.cli("run", "--fixtures", ctx.good, "--impl", "cf13:good", "-o", str(log))
    before = log.read_text()
    p = ctx.cli(
        "run", "--fixtures", ctx.good, "--impl", "cf13:good", "-k", "no-such", "-o", str(log)
    )
    ok = p.rc == 2 and "100.0%" not in p.out and log.read_text() == before
    return verdict(p, ok, p.err.strip()[-100:])


# ---- 14. outputs that cannot be written -----------------------------------------------------

OUTPUTS = {
    "run --output": ("run", ["--output"]),
    "run --junit-xml": ("run", ["--junit-xml"]),
    "run --update-baseline": ("run", ["--update-baseline", "--baseline"]),
    "compare --output": ("compare", ["--output"]),
    "compare --report": ("compare", ["--report"]),
}


def _unwritable(command: str, option: list[str], where: str) -> Check:
    def check(ctx: Ctx) -> tuple[bool, str]:
        os.chmod(ctx.dir, 0o755)
        readonly = ctx.dir / "ro"
        readonly.mkdir()
        readonly.chmod(0o555)
        target = {
            "missing dir": str(ctx.dir / "missing" / "out"),
            "read-only dir": str(readonly / "out"),
            "/dev/full": "/dev/full",
        }[where]
        # before the work: a spinning implementation would hang the command if it ran
        impl = "cf13:good" if where == "/dev/full" else "cf13:spin"
        argv = [command, "--fixtures", ctx.good, "--impl", impl, *option, target]
        if command == "compare":
            argv += ["--impl", "cf13:good"]
        p = ctx.cli(*argv, timeout=25, nobody=where == "read-only dir")
        ok = p.rc == 2 and target in p.err
        return verdict(p, ok, f"{p.secs:.1f} s; {p.err.strip()[-110:]!r}")

    return check


for _label, (_command, _option) in OUTPUTS.items():
    for _where in ("missing dir", "read-only dir", "/dev/full"):
        probe(14, f"{_label} into {_where}")(_unwritable(_command, _option, _where))


# ---- 15. baselines and timeouts ------------------------------------------------------------


def _baseline(content: str) -> Check:
    def check(ctx: Ctx) -> tuple[bool, str]:
        base = ctx.write("base.json", content)
        p = ctx.cli(
            "run", "--fixtures", ctx.good, "--impl", "cf13:spin", "--baseline", str(base),
            timeout=25,
        )  # fmt: skip
        ok = p.rc == 2 and "base.json" in p.err
        return verdict(p, ok, p.err.strip()[-120:])

    return check


probe(15, "baseline []")(_baseline("[]"))
probe(15, "baseline null")(_baseline("null"))
probe(15, "baseline with cases as a list")(
    _baseline(
        '{"format": "bleu-conformance-baseline", "version": 1, '
        '"implementations": {"cf13:good": {"cases": []}}}'
    )
)


@probe(15, "NaN in a baseline")
def _nan_baseline(ctx: Ctx) -> tuple[bool, str]:
    base = ctx.dir / "base.json"
    ctx.cli("run", "--fixtures", ctx.good, "--impl", "cf13:good", "--baseline", str(base),
            "--update-baseline")  # fmt: skip
    doc = json.loads(base.read_text())
    cases = doc["implementations"]["cf13:good"]["cases"]
    cases["camp.exact"]["score"] = float("nan")
    base.write_text(json.dumps(doc), encoding="utf-8")
    p, report = ctx.run_json("--impl", "cf13:good", "--baseline", str(base))
    moved = [m for m in (report or {}).get("baseline", []) if m.get("case") == "camp.exact"]
    return verdict(p, p.rc == 1 and moved != [], f"moved {moved}")


for _t in ("0", "-5", "nan", "inf"):

    def _timeout(ctx: Ctx, t: str = _t) -> tuple[bool, str]:
        p = ctx.cli("run", "--fixtures", ctx.good, "--impl", "cf13:good", f"--timeout={t}")
        return verdict(p, p.rc == 2 and "timeout" in p.err, p.err.strip()[-100:])

    probe(15, f"--timeout {_t}")(_timeout)


# ---- 16. standard streams ---------------------------------------------------------------


def _stdin_twice(*argv: str) -> Check:
    def check(ctx: Ctx) -> tuple[bool, str]:
        p = ctx.cli(*argv, stdin=b"the cat sat\nthe dog ran\n")
        ok = p.rc == 2 and "standard input" in p.err and p.out == ""
        return verdict(p, ok, p.err.strip()[-120:])

    return check


probe(16, "score -r - < hyp.txt")(_stdin_twice("score", "-r", "-"))
probe(16, "score -r - -i -")(_stdin_twice("score", "-r", "-", "-i", "-"))
probe(16, "explain -r - < hyp.txt")(_stdin_twice("explain", "-r", "-"))


@probe(16, "score with stdin closed")
def _stdin_closed(ctx: Ctx) -> tuple[bool, str]:
    ref = ctx.write("ref.txt", "the cat sat\n")
    p = ctx.cli("score", "-r", str(ref), stdin=None, preexec_fn=lambda: os.close(0))
    return verdict(p, p.rc == 2 and "standard input" in p.err, p.err.strip()[-100:])


@probe(16, "score with stdout on a full disk")
def _stdout_full(ctx: Ctx) -> tuple[bool, str]:
    ref = ctx.write("ref.txt", "the cat sat\n")
    with open("/dev/full", "wb") as full:
        p = ctx.cli("score", "-r", str(ref), "-i", str(ref), stdout=full)
    return verdict(p, p.rc == 2 and "No space left" in p.err, p.err.strip()[-100:])


# ---- 17. the library's boundary -----------------------------------------------------------

LIBRARY = {
    'corpus_bleu("ab", [["a"], ["b"]])': 'corpus_bleu("ab", [["a"], ["b"]])',
    "references nested one level too deep (corpus_bleu)": (
        'corpus_bleu(["the cat sat on the mat"], [[["the cat sat on the mat"]]])'
    ),
    "references nested one level too deep (sentence_bleu)": (
        'sentence_bleu("the cat sat on the mat", [["the cat sat on the mat"]])'
    ),
    "BleuStats with NaN hyp_len": 'BleuStats((1, 1), (2, 2), float("nan"), 2)',
    "BleuStats with counts > totals": "BleuStats((3, 2), (2, 1), 2, 2)",
    "BleuStats with negative ref_len": "BleuStats((1, 0), (2, 1), 2, -3)",
}


def _library(expression: str) -> Check:
    def check(ctx: Ctx) -> tuple[bool, str]:
        code = textwrap.dedent(f"""\
            from bleu_impl import BleuStats, InputError, corpus_bleu, score_stats, sentence_bleu
            try:
                value = {expression}
                if isinstance(value, BleuStats):
                    value = score_stats(value)
            except InputError as exc:
                print("InputError:", exc)
            else:
                print("accepted:", getattr(value, "score", value))
            """)
        proc = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
        )
        out = proc.stdout.strip()
        ok = proc.returncode == 0 and out.startswith("InputError:") and len(out) > 30
        return ok, (out or proc.stderr.strip().splitlines()[-1])[:160]

    return check


LIBRARY["(extra) token-list references nested one level too deep"] = (
    'corpus_bleu([["the", "cat", "sat"]], [[[["the", "cat", "sat"]]]])'
)
LIBRARY["(extra) one-word references nested one level too deep"] = (
    'corpus_bleu(["cat"], [[["cat"]]])'  # a raw hypothesis may meet a token-list reference
)

for _label, _expression in LIBRARY.items():
    probe(17, _label)(_library(_expression))


# ---- beyond the list ------------------------------------------------------------
#
# The issue says the campaign will be re-run with inputs it does not list. These probes
# are such inputs, of the same families (their names start with "(extra)" and they are
# counted apart). Each one behaved badly before the session that added it.


def _outcomes(report: Any) -> list[tuple[str, str]]:
    return [(r["outcome"], r.get("reason", "")) for r in (report or {}).get("results", [])]


def _errors(spec: Callable[[Ctx], str], *says: str, unless: str = "") -> Check:
    """``run`` on the two cases: both ``error`` with reasons saying each of ``says`` (and
    not ``unless``), exit 1, no traceback."""

    def check(ctx: Ctx) -> tuple[bool, str]:
        p, report = ctx.run_json("--impl", spec(ctx))
        rows = _outcomes(report)
        fits = [
            o == "error" and all(x in why for x in says) and not (unless and unless in why)
            for o, why in rows
        ]
        return verdict(p, p.rc == 1 and fits == [True] * CASES, f"{rows[:1]}"[:160])

    return check


def _raw(line: str) -> Callable[[Ctx], str]:
    def spec(ctx: Ctx) -> str:
        arg = shlex.quote("raw:" + line)
        return f"jsonl:{shlex.quote(sys.executable)} {ctx.dir / 'prog.py'} {arg}"

    return spec


def _command(ctx: Ctx, script: str, regex: str = "") -> str:
    lines = ["kind: command", "name: x-command", f"template: bash -c {shlex.quote(script)}"]
    lines += ["timeout: 20", "expect: [papineni2002]"]
    lines += [f"regex: '{regex}'"] if regex else []
    return str(ctx.write("command.yaml", "\n".join(lines) + "\n"))


EXTRA_GARBAGE: dict[str, tuple[Callable[[Ctx], str], str]] = {
    "python answer True (a bool)": (lambda c: "cf13:x_true", "bool"),
    "python answer '1.0' (a string)": (lambda c: "cf13:x_text", "str"),
    "python answer 10**400": (lambda c: "cf13:x_huge", "float's range"),
    "python answer -0.5": (lambda c: "cf13:x_negative", ">= 0"),
    "python counts [6.5, 5.5, ...]": (lambda c: "cf13:x_half_counts", "counts"),
    "python counts ['6', '5', ...]": (lambda c: "cf13:x_text_counts", "counts"),
    "python bp 10**400": (lambda c: "cf13:x_huge_bp", "bp"),
    "JSONL bp of 400 digits": (
        _raw('{"seq": {seq}, "score": 0.5, "bp": 1' + "0" * 400 + "}"),
        "bp",
    ),
    "JSONL score of 5,000 digits": (_raw('{"seq": {seq}, "score": 1' + "0" * 5000 + "}"), "limit"),
    "JSONL answer nested 50,000 deep": (
        _raw('{"seq": {seq}, "score": 0.5, "x": ' + "[" * 50_000 + "]" * 50_000 + "}"),
        "recursion",
    ),
    "JSONL endless stdout line (300 MB)": (lambda c: c.jsonl("endless"), "16 MiB"),
    "command writing 2 GB to stdout": (
        lambda c: _command(c, "head -c 2000000000 /dev/zero; echo 1.0"),
        "16 MiB",
    ),
    "command printing a hyp_len of 400 digits": (
        lambda c: _command(
            c, "echo BLEU 0.5 len 1" + "0" * 400, r"BLEU (?P<score>\S+) len (?P<hyp_len>\d+)"
        ),
        "hyp_len",
    ),
}
for _label, (_spec, _says) in EXTRA_GARBAGE.items():
    probe(4, f"(extra) {_label}")(_errors(_spec, "garbage: ", _says))


@probe(4, "(extra) python numpy scalars and arrays (a correct answer)")
def _x_numpy(ctx: Ctx) -> tuple[bool, str]:
    p, report = ctx.run_json("--impl", "cf13:x_numpy")
    rows = _outcomes(report)
    return verdict(p, p.rc == 0 and [o for o, _ in rows] == ["pass"] * CASES, f"{rows}"[:160])


probe(4, "(extra) JSONL seq 1.0 (not the integer sent)")(
    _errors(_raw('{"seq": 1.0, "score": 1.0}'), "protocol: ")
)

EXTRA_DECLARED = {
    "hello name with a line break and an ANSI escape": {"name": "x\nFAIL \x1b[2J"},
    "hello name with a bidi override": {"name": "camp \u202eliaf"},
    "hello version of 10,000 characters": {"version": "1" * 10_000},
}


for _label, _patch in EXTRA_DECLARED.items():
    probe(4, f"(extra) {_label}")(
        _errors(lambda c, p=_patch: c.jsonl("hello", p), f"{next(iter(_patch))}: must be")
    )


def _adapter_file(text: str) -> Callable[[Ctx], str]:
    return lambda ctx: str(ctx.write("adapter.yaml", text))


probe(4, "(extra) adapter file timeout: 1e308")(
    _errors(
        _adapter_file("kind: python\ncallable: cf13:good\ntimeout: 1.0e+308\n"), "timeout: must"
    )
)
probe(4, "(extra) adapter file with a duplicate key")(
    _errors(_adapter_file("kind: python\ncallable: cf13:good\nkind: jsonl\n"), "duplicate key")
)


probe(1, "(extra) raises a BaseException subclass")(
    _errors(lambda c: "cf13:x_base", "the implementation raised XBase", unless="adapter bug")
)
probe(1, "(extra) raises an exception whose str() fails")(
    _errors(lambda c: "cf13:x_unprintable", "XUnprintable", unless="adapter bug")
)

RSS_WRAPPER = (
    "import resource, subprocess, sys\n"
    "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)\n"
)


def _x_flood(spec: Callable[[Ctx], str]) -> Check:
    """200 MB on stderr without a newline: memory stays bounded (the harness and its
    workers under 300 MB) and the flood's end is shown with the case."""

    def check(ctx: Ctx) -> tuple[bool, str]:
        argv = ["run", "--fixtures", ctx.good, "--impl", spec(ctx), "--format", "json"]
        wrapper = [sys.executable, "-c", RSS_WRAPPER, str(BIN), *argv]
        measured = subprocess.run(
            wrapper, cwd=ctx.dir, env=ctx.env(), capture_output=True, text=True, timeout=120
        )
        peak = int(measured.stdout.strip() or 0)
        p, report = ctx.run_json("--impl", spec(ctx))
        tails = [r.get("stderr", "") for r in (report or {}).get("results", [])]
        kept = bool(tails) and tails[0].endswith("END-OF-FLOOD")
        ok = p.rc == 0 and kept and 0 < peak < 300
        return verdict(p, ok, f"peak {peak} MB; flood's end kept: {kept}")

    return check


probe(7, "(extra) python stderr flood of 200 MB without a newline")(
    _x_flood(lambda c: "cf13:x_flood")
)
probe(7, "(extra) JSONL stderr flood of 200 MB without a newline")(
    _x_flood(lambda c: c.jsonl("flood"))
)


@probe(8, "(extra) command leaving a daemon on its stdout")
def _x_daemon(ctx: Ctx) -> tuple[bool, str]:
    spec = _command(ctx, f"sleep 300 & echo $! >> {ctx.pids}; echo 1.0")
    p, report = ctx.run_json("--impl", spec, "-k", "camp.exact")
    rows = _outcomes(report)
    left = gone(read_pids(ctx))
    ok = p.rc == 0 and [o for o, _ in rows] == ["pass"] and read_pids(ctx) != [] and not left
    return verdict(p, ok, f"{rows}; {p.secs:.1f} s; left {left}"[:160])


@probe(1, "(extra) writes a forged reply (code to run) on the worker's channel")
def _x_forge(ctx: Ctx) -> tuple[bool, str]:
    p, report = ctx.run_json("--impl", "cf13:x_forge")
    rows = _outcomes(report)
    ran = Path(f"{ctx.pids}.forged").exists()
    ok = p.rc == 1 and not ran and rows != [] and all(o == "error" for o, _ in rows)
    return verdict(p, ok, f"code ran in the harness: {ran}; {rows[:1]}"[:160])


probe(1, "(extra) writes a stray reply on the worker's channel")(
    _errors(lambda c: "cf13:x_stray", "out of sequence")
)


@probe(8, "(extra) JSONL program that stops reading, a request of 300 kB, --timeout 2")
def _x_deaf(ctx: Ctx) -> tuple[bool, str]:
    long = " ".join(f"w{i % 50}" for i in range(60_000))
    cases = ctx.write("long.yaml", GOOD_YAML.replace("hypothesis: w x y z", f"hypothesis: {long}"))
    p, report = ctx.run_json("--impl", ctx.jsonl("deaf"), "--timeout", "2", fixtures=str(cases))
    rows = _outcomes(report)
    ok = p.rc == 1 and rows != [] and all("timeout" in why for _, why in rows) and p.secs < 30
    return verdict(p, ok, f"{p.secs:.1f} s; {rows}"[:160])


@probe(3, "(extra) control characters in an implementation's message")
def _x_controls(ctx: Ctx) -> tuple[bool, str]:
    junit = ctx.dir / "junit.xml"
    p = ctx.cli(
        "run", "--fixtures", ctx.good, "--impl", "cf13:x_controls", "--junit-xml", str(junit)
    )
    try:
        ElementTree.parse(junit)
        xml_ok = True
    except (ElementTree.ParseError, OSError):
        xml_ok = False
    raw = any(c in p.out for c in "\x1b\x00\x07\u202e")
    return verdict(p, p.rc == 1 and xml_ok and not raw, f"JUnit well-formed: {xml_ok}; raw: {raw}")


@probe(3, "(extra) lone surrogate in an implementation's message")
def _x_surrogate(ctx: Ctx) -> tuple[bool, str]:
    junit = ctx.dir / "junit.xml"
    p = ctx.cli(
        "run", "--fixtures", ctx.good, "--impl", "cf13:x_surrogate", "--junit-xml", str(junit)
    )
    q = ctx.cli(
        "compare", "--fixtures", ctx.good, "--impl", "cf13:x_surrogate", "--impl", "cf13:good"
    )
    ok = p.rc == 1 and junit.exists() and q.rc == 0 and q.clean
    return verdict(p, ok, f"run exit {p.rc}, JUnit {junit.exists()}, compare exit {q.rc}")


def _x_folder(ctx: Ctx, odd: str) -> Path:
    folder = ctx.dir / "lib"
    ctx.write("lib/ok.yaml", GOOD_YAML)
    if odd == "loop":
        (folder / "loop.yaml").symlink_to(folder / "loop.yaml")
    else:
        os.mkfifo(folder / "pipe.yaml")
    return folder


def _x_odd_file(odd: str, says: str) -> Check:
    def check(ctx: Ctx) -> tuple[bool, str]:
        folder = _x_folder(ctx, odd)
        v = ctx.cli("validate", str(folder), timeout=30)
        r = ctx.cli("run", "--fixtures", str(folder), "--impl", "cf13:good", timeout=30)
        ok = v.rc == 1 and says in v.out and r.rc == 2 and "100.0%" in r.out
        return verdict(
            r if v.clean else v, ok and v.clean, f"validate exit {v.rc}, run exit {r.rc}"
        )

    return check


probe(9, "(extra) a link loop in a fixture folder")(_x_odd_file("loop", "symbolic links"))
probe(9, "(extra) a named pipe in a fixture folder")(_x_odd_file("pipe", "named pipe"))


@probe(9, "(extra) one fixture file named twice (directly and through a link)")
def _x_twice(ctx: Ctx) -> tuple[bool, str]:
    (ctx.dir / "link.yaml").symlink_to(ctx.dir / "good.yaml")
    argv = ["--fixtures", ctx.good, "--fixtures", str(ctx.dir / "link.yaml")]
    p = ctx.cli("run", *argv, "--impl", "cf13:good")
    return verdict(p, p.rc == 0 and "duplicate" not in p.out + p.err, p.out.strip()[-60:])


def _x_edited_log(kind: str, field: str, value: Any) -> Check:
    def check(ctx: Ctx) -> tuple[bool, str]:
        log = ctx.dir / "log.jsonl"
        if kind == "run":
            ctx.cli("run", "--fixtures", ctx.good, "--impl", "cf13:good", "-o", str(log))
            key, wanted = "record", "result"
        else:
            ctx.cli("compare", "--fixtures", ctx.good, "--impl", "cf13:good", "--impl",
                    "bleu_impl", "--output", str(log))  # fmt: skip
            key, wanted = "kind", "pair"
        records = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
        index = next(i for i, r in enumerate(records) if r.get(key) == wanted)
        records[index][field] = value
        log.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
        for fmt in FORMATS:
            if kind == "run":
                p = ctx.cli("report", str(log), "--format", fmt)
            else:
                p = ctx.cli("compare", "--replay", str(log), "--format", fmt)
            if not (p.clean and p.rc == 2 and f"log.jsonl:{index + 1}" in p.err):
                return verdict(p, False, f"{fmt}: {p.err.strip()[-100:]}")
        return True, f"exit 2 naming line {index + 1} in every format"

    return check


for _kind, _field, _value in [
    ("run", "outcome", []),
    ("run", "expected", "x"),
    ("run", "stderr", None),
    ("compare", "changes", True),
    ("compare", "verdict", {}),
]:
    probe(13, f"(extra) {_kind} log with {_field} = {_value!r}")(
        _x_edited_log(_kind, _field, _value)
    )


@probe(13, "(extra) report --impl NAME not in the log")
def _x_report_impl(ctx: Ctx) -> tuple[bool, str]:
    log = ctx.dir / "run.jsonl"
    ctx.cli("run", "--fixtures", ctx.good, "--impl", "cf13:good", "-o", str(log))
    p = ctx.cli("report", str(log), "--impl", "cf13:goood")
    return verdict(p, p.rc == 2 and "not in this log" in p.err, p.err.strip()[-100:])


def _x_corpus(ctx: Ctx) -> list[str]:
    ref = ctx.write("ref.txt", "the cat sat on the mat\nthe dog ran away\n")
    a = ctx.write("a.txt", "the cat sat on a mat\nthe dog ran\n")
    b = ctx.write("b.txt", "a cat sat on the mat\nthe dogs ran away\n")
    return ["-r", str(ref), "-i", str(a), "-i", str(b)]


@probe(14, "(extra) compare -r/-i --report into a missing directory")
def _x_corpus_report(ctx: Ctx) -> tuple[bool, str]:
    target = str(ctx.dir / "missing" / "r.txt")
    argv = [*_x_corpus(ctx), "--impl", "cf13:x_marks", "--impl", "bleu_impl"]
    p = ctx.cli("compare", *argv, "--report", target)
    ok = p.rc == 2 and f"--report {target}" in p.err and read_pids(ctx) == []
    return verdict(p, ok, f"{p.secs:.1f} s; implementation called: {read_pids(ctx) != []}")


@probe(14, "(extra) compare -r/-i --output (a log corpus mode does not write)")
def _x_corpus_output(ctx: Ctx) -> tuple[bool, str]:
    log = ctx.dir / "cmp.jsonl"
    argv = [*_x_corpus(ctx), "--impl", "bleu_impl", "--impl", "bleu_impl:nltk"]
    p = ctx.cli("compare", *argv, "--output", str(log))
    ok = (p.rc == 2 and "--output" in p.err) or (p.rc == 0 and log.exists())
    return verdict(p, ok, f"log written: {log.exists()}; {p.err.strip()[-80:]}")


@probe(14, "(extra) compare --knob in fixture mode (a corpus-mode option)")
def _x_fixture_knob(ctx: Ctx) -> tuple[bool, str]:
    argv = ["--fixtures", ctx.good, "--impl", "bleu_impl", "--impl", "bleu_impl:nltk"]
    p = ctx.cli("compare", *argv, "--knob", "tokenize=char")
    return verdict(p, p.rc == 2 and "--knob" in p.err, p.err.strip()[-80:])


@probe(16, "(extra) compare -r/-i, no --baseline, no sacrebleu among --impl")
def _x_corpus_baseline(ctx: Ctx) -> tuple[bool, str]:
    argv = [*_x_corpus(ctx), "--impl", "bleu_impl", "--impl", "bleu_impl:nltk"]
    p = ctx.cli("compare", *argv)
    return verdict(p, p.rc == 0 and "baseline: bleu_impl" in p.out, p.err.strip()[-80:])


for _argv, _says in [
    (["--timeout", "1e308"], "--timeout"),
    (["--as", ""], "--as"),
    (["--impl", ""], "--impl"),
]:

    def _x_option(ctx: Ctx, argv: list[str] = _argv, says: str = _says) -> tuple[bool, str]:
        p = ctx.cli("run", "--fixtures", ctx.good, "--impl", "cf13:good", *argv)
        return verdict(p, p.rc == 2 and says in p.err, p.err.strip()[-90:])

    probe(15, f"(extra) run {shlex.join(_argv)}")(_x_option)


@probe(15, "(extra) a baseline score of 400 digits")
def _x_baseline_digits(ctx: Ctx) -> tuple[bool, str]:
    base = ctx.dir / "base.json"
    ctx.cli("run", "--fixtures", ctx.good, "--impl", "cf13:good", "--baseline", str(base),
            "--update-baseline")  # fmt: skip
    text = base.read_text(encoding="utf-8").replace('"score": 1.0', '"score": 1' + "0" * 400)
    base.write_text(text, encoding="utf-8")
    p, report = ctx.run_json("--impl", "cf13:good", "--baseline", str(base))
    moved = [m["what"] for m in (report or {}).get("baseline", [])]
    return verdict(p, p.rc == 1 and moved == ["score"], f"moved {moved}")


probe(17, "(extra) token-list hypothesis, one reference not wrapped (NLTK's missing level)")(
    _library('corpus_bleu([["the", "cat", "sat"]], [["the", "cat", "sat"]])')
)


# ---- driver -----------------------------------------------------------------------------------


def prepare(folder: Path) -> Ctx:
    ctx = Ctx(folder)
    ctx.write("good.yaml", GOOD_YAML)
    ctx.write("cf13.py", FAKES)
    ctx.write("cf13_import.py", AT_IMPORT)
    ctx.write("prog.py", PROGRAM)
    for path in [folder, *folder.iterdir()]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return ctx


def run_probe(item: Probe) -> tuple[bool, str, float]:
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="campaign13-") as tmp:
        try:
            ok, note = item.check(prepare(Path(tmp)))
        except Exception as exc:  # a bug of the probe or an unexpected shape: counted bad
            ok, note = False, f"probe raised {type(exc).__name__}: {exc}"
        finally:
            for path in Path(tmp).rglob("*"):  # restore what was made unreadable
                if path.is_dir() and not path.is_symlink():
                    path.chmod(0o755)
    return ok, note, time.monotonic() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--item", type=int, action="append", help="only this item (repeatable)")
    parser.add_argument("-k", default="", help="only inputs whose name contains this")
    args = parser.parse_args(argv)
    chosen = [p for p in PROBES if (not args.item or p.item in args.item) and args.k in p.name]
    table: dict[int, list[int]] = {}  # item -> [listed tried, well, extra tried, well]
    bad: list[str] = []
    for item in chosen:
        ok, note, secs = run_probe(item)
        counts = table.setdefault(item.item, [0, 0, 0, 0])
        extra = 2 if item.name.startswith("(extra)") else 0
        counts[extra] += 1
        counts[extra + 1] += ok
        mark = "well " if ok else "BADLY"
        print(f"{item.item:>2} {mark} {secs:5.1f}s  {item.name}: {note}", flush=True)
        if not ok:
            bad.append(f"{item.item}: {item.name}: {note}")
    print("\n        listed in the issue  extra inputs")
    print("item    tried  well          tried  well")
    for number in sorted(table):
        c = table[number]
        print(f"{number:>4}    {c[0]:>5}  {c[1]:>4}          {c[2]:>5}  {c[3]:>4}")
    total = [sum(c[i] for c in table.values()) for i in range(4)]
    print(f"total   {total[0]:>5}  {total[1]:>4}          {total[2]:>5}  {total[3]:>4}")
    if bad:
        print("\nhandled badly:\n  " + "\n  ".join(bad))
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
