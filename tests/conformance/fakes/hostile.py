"""Python implementations that attack the harness: each must become an error state for
its cases (or a startup error), never end or corrupt the run."""

from __future__ import annotations

import contextlib
import ctypes
import os
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from bleu_impl import corpus_bleu

from .impls import good_dict

#: Where the fakes that leave processes behind write their pids (set by the tests).
PID_FILE = "BLEU_TEST_PID_FILE"


def _good(hypotheses: list, references: list, **config: Any) -> float:
    return corpus_bleu(hypotheses, references, **config).score


def _note_pid(pid: int) -> None:
    path = os.environ.get(PID_FILE)
    if path:
        with Path(path).open("a", encoding="utf-8") as f:
            f.write(f"{pid}\n")


def exit_zero(hypotheses: list, references: list, **config: Any) -> float:
    sys.exit(0)


def exit_three(hypotheses: list, references: list, **config: Any) -> float:
    sys.exit(3)


def os_exit(hypotheses: list, references: list, **config: Any) -> float:
    os._exit(0)


def segfault(hypotheses: list, references: list, **config: Any) -> float:
    ctypes.string_at(0)  # reads address 0: SIGSEGV
    return 0.0


def keyboard_interrupt(hypotheses: list, references: list, **config: Any) -> float:
    raise KeyboardInterrupt


def spin(hypotheses: list, references: list, **config: Any) -> float:
    """Busy-loops forever (no sleep: a thread running this starves the next one)."""
    _note_pid(os.getpid())
    while True:
        pass


def spawn_and_hang(hypotheses: list, references: list, **config: Any) -> float:
    """Starts a child of its own, then hangs: the timeout must end both."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
    _note_pid(child.pid)
    _note_pid(os.getpid())
    time.sleep(300)
    return 0.0


def prints(hypotheses: list, references: list, **config: Any) -> float:
    print("IMPLEMENTATION CHATTER on stdout")
    os.write(1, b"raw bytes on fd 1\n")
    return _good(hypotheses, references, **config)


def reads_stdin(hypotheses: list, references: list, **config: Any) -> float:
    sys.stdin.read()  # must not eat the harness's protocol
    return _good(hypotheses, references, **config)


def nan(hypotheses: list, references: list, **config: Any) -> float:
    return float("nan")


def inf(hypotheses: list, references: list, **config: Any) -> float:
    return float("inf")


def bp_word(hypotheses: list, references: list, **config: Any) -> dict:
    return {"score": _good(hypotheses, references, **config), "bp": "one"}


def nan_statistics(hypotheses: list, references: list, **config: Any) -> dict:
    nan = float("nan")
    score = _good(hypotheses, references, **config)
    return {"score": score, "bp": nan, "hyp_len": nan, "ref_len": nan}


def unpicklable(hypotheses: list, references: list, **config: Any) -> dict:
    return {"score": _good(hypotheses, references, **config), "bp": lambda: 1}


def always_raises(hypotheses: list, references: list, **config: Any) -> float:
    raise ValueError("this implementation always fails")


def _declaring(**attributes: Any) -> Any:
    def bleu(hypotheses: list, references: list, **config: Any) -> float:
        return _good(hypotheses, references, **config)

    for name, value in attributes.items():
        setattr(bleu, name, value)
    return bleu


scale_string = _declaring(bleu_scale="100")
scale_zero = _declaring(bleu_scale=0)
precision_word = _declaring(bleu_precision="two")
levels_string = _declaring(bleu_levels="corpus")
expect_unknown = _declaring(bleu_expect="papineni2002x")
misspelled = _declaring(bleu_scael=100)
native_unknown = _declaring(bleu_native="no-such-profile")
arithmetic_word = _declaring(bleu_arithmetic="float16")
declares_everything = _declaring(
    bleu_native="sacrebleu",
    bleu_native_knobs={"tokenize": "intl"},
    bleu_arithmetic="float32",
    bleu_expect=["papineni2002"],
)


# ---- answers of odd types: garbage, never converted by guessing, never a crash ----------


def returns_true(hypotheses: list, references: list, **config: Any) -> bool:
    return True


def returns_text(hypotheses: list, references: list, **config: Any) -> str:
    return str(_good(hypotheses, references, **config))


def returns_huge_int(hypotheses: list, references: list, **config: Any) -> int:
    return 10**400


def returns_negative(hypotheses: list, references: list, **config: Any) -> float:
    return -0.5


def counts_halves(hypotheses: list, references: list, **config: Any) -> dict:
    answer = good_dict(hypotheses, references, **config)
    return {**answer, "counts": [c + 0.5 for c in answer["counts"]]}


def counts_text(hypotheses: list, references: list, **config: Any) -> dict:
    answer = good_dict(hypotheses, references, **config)
    return {**answer, "counts": [str(c) for c in answer["counts"]]}


def huge_bp(hypotheses: list, references: list, **config: Any) -> dict:
    return {**good_dict(hypotheses, references, **config), "bp": 10**400}


def numpy_statistics(hypotheses: list, references: list, **config: Any) -> dict:
    """What a numpy or torch implementation returns: numpy scalars and arrays."""
    import numpy as np

    r = corpus_bleu(hypotheses, references, **config)
    return {
        "score": np.float64(r.score),
        "counts": np.array(r.counts),
        "totals": [np.int64(t) for t in r.totals],
        "bp": np.float32(r.bp),
        "hyp_len": np.int64(r.hyp_len),
        "ref_len": np.float32(r.ref_len),
    }


class _Custom(BaseException):
    pass


def raises_base_exception(hypotheses: list, references: list, **config: Any) -> float:
    raise _Custom("not an Exception")


class _Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no message for you")


def raises_unprintable(hypotheses: list, references: list, **config: Any) -> float:
    raise _Unprintable()


def _flood_stderr(megabytes: int) -> None:
    """``megabytes`` MB on stderr without a newline, 1 MB at a time, then END-OF-FLOOD."""
    for _ in range(megabytes):
        sys.stderr.write("x" * 1_000_000)
    sys.stderr.write("END-OF-FLOOD")
    sys.stderr.flush()


def floods_stderr(hypotheses: list, references: list, **config: Any) -> float:
    """3 MB on stderr without a newline, then a correct answer."""
    _flood_stderr(3)
    return _good(hypotheses, references, **config)


def floods_200_mb_of_stderr(hypotheses: list, references: list, **config: Any) -> float:
    """200 MB on stderr without a newline, then a correct answer."""
    _flood_stderr(200)
    return _good(hypotheses, references, **config)


def raises_control_characters(hypotheses: list, references: list, **config: Any) -> float:
    """A message that would recolor a terminal, ring its bell and break JUnit XML."""
    sys.stderr.write("progress \x1b[2J\r\x00 done\n")
    raise RuntimeError("ESC \x1b[31m NUL \x00 BEL \x07 RLO \u202e nonchar \ufffe")


def raises_lone_surrogate(hypotheses: list, references: list, **config: Any) -> float:
    """What ``os.fsdecode`` makes of a file name that is not UTF-8."""
    name = os.fsdecode(b"model-\xff.bin")
    raise FileNotFoundError(f"no such file: {name}")


def marks_its_calls(hypotheses: list, references: list, **config: Any) -> float:
    """A correct implementation that notes each call (its pid) in the pid file: a test
    of "checked before the work" asserts the file was never written."""
    _note_pid(os.getpid())
    return _good(hypotheses, references, **config)


def _write_on_every_fd(payload: bytes) -> None:
    """Write ``payload`` on every descriptor from 3 up: the worker's channel among them."""
    for fd in range(3, 32):
        with contextlib.suppress(OSError):
            os.write(fd, payload)


def scribbles_on_descriptors(hypotheses: list, references: list, **config: Any) -> float:
    """A frame header announcing 4 GB, then noise."""
    _write_on_every_fd(b"\xff\xff\xff\xf0noise")
    return _good(hypotheses, references, **config)


def forges_a_reply(hypotheses: list, references: list, **config: Any) -> float:
    """A well-framed reply whose unpickling would run a command in the harness (creating
    the file named by the pid-file variable + '.forged')."""
    import pickle
    import struct

    target = os.environ.get(PID_FILE, "/dev/null") + ".forged"

    class Payload:
        def __reduce__(self) -> tuple:
            return (os.system, (f"touch {target}",))

    data = pickle.dumps((1, "ok", Payload()))
    _write_on_every_fd(struct.pack(">I", len(data)) + data)
    time.sleep(0.5)  # the forged reply arrives first
    return _good(hypotheses, references, **config)


def replays_a_reply(hypotheses: list, references: list, **config: Any) -> float:
    """A well-formed reply out of sequence: the next request would read it as its own."""
    import pickle
    import struct

    data = pickle.dumps((99, "ok", None))
    _write_on_every_fd(struct.pack(">I", len(data)) + data)
    time.sleep(0.5)
    return _good(hypotheses, references, **config)


def returns_numpy_bool(hypotheses: list, references: list, **config: Any) -> Any:
    """A truth value of numpy's (``float()`` makes it 1.0): no more a score than ``True``."""
    import numpy as np

    return np.bool_(True)


def returns_numpy_text(hypotheses: list, references: list, **config: Any) -> Any:
    """A 0-d array of text, whose ``float()`` parses it: no more a score than ``"1.0"``."""
    import numpy as np

    return np.array("1.0")


def returns_numpy_truth(hypotheses: list, references: list, **config: Any) -> Any:
    """A 0-d array of a truth value (``float()`` makes it 1.0)."""
    import numpy as np

    return np.array(True)


def returns_numpy_object(hypotheses: list, references: list, **config: Any) -> Any:
    """A 0-d array of dtype object holding text (``float()`` parses it)."""
    import numpy as np

    return np.array("1.0", dtype=object)


def returns_numpy_complex(hypotheses: list, references: list, **config: Any) -> Any:
    """numpy's complex (``float()`` drops the imaginary part with a warning)."""
    import numpy as np

    return np.complex128(1 + 1j)


def bp_numpy_text(hypotheses: list, references: list, **config: Any) -> dict:
    import numpy as np

    return {**good_dict(hypotheses, references, **config), "bp": np.array("1.0")}


class _BrokenMapping(Mapping):
    """A mapping of the implementation's own whose every lookup raises."""

    def __getitem__(self, key: str) -> Any:
        raise ValueError("no lookups here")

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0

    def get(self, key: str, default: Any = None) -> Any:
        raise ValueError("no lookups here")


def returns_broken_mapping(hypotheses: list, references: list, **config: Any) -> Any:
    return _BrokenMapping()


def forks(hypotheses: list, references: list, **config: Any) -> float:
    """Forks and returns in both processes (a careless multiprocessing): one answer only.
    The child returns last, so its reply would be read as the next request's."""
    if not os.fork():
        time.sleep(0.3)
    return _good(hypotheses, references, **config)


def closes_its_output(hypotheses: list, references: list, **config: Any) -> float:
    """Closes fds 1 and 2 (a daemonizing library): the next case must not inherit that."""
    os.close(1)
    os.close(2)
    return _good(hypotheses, references, **config)


def closes_all_its_streams(hypotheses: list, references: list, **config: Any) -> float:
    """Closes fds 0, 1 and 2 (a daemonizing library): in the next case, fd 0 was still
    closed and its ``os.close(0)`` failed (EBADF)."""
    for fd in (0, 1, 2):
        os.close(fd)
    return _good(hypotheses, references, **config)


# ---- answers that hold nothing to compare -----------------------------------------------


def constant(*args: Any, **kwargs: Any) -> float:
    """The same score for everything: never a pass, whatever an expectation lacks."""
    return 0.123


sentence_only = _declaring(bleu_levels=["sentence"])
tokenized_only = _declaring(bleu_inputs=["tokenized"])


# ---- answers too large to be answers ----------------------------------------------------


def counts_beyond_order(hypotheses: list, references: list, **config: Any) -> dict:
    """Six orders of counts for a request of max_order 4."""
    return {"score": 0.5, "counts": [1] * 6, "totals": [1] * 6}


def failure_of_30_mb(hypotheses: list, references: list, **config: Any) -> dict:
    return {"failure": {"kind": "k" * 1_000_000, "message": "m" * 30_000_000}}


def allocates_4_gib(hypotheses: list, references: list, **config: Any) -> float:
    """Allocates without bound (as a leak on a large corpus does)."""
    hoard = bytearray(4 * 2**30)
    return float(len(hoard) > 0)


# ---- messages and names that try to write Markdown or HTML ------------------------------

INJECTED = (
    "boom\n# ALL CASES PASSED\n\n| everything | 100.0% |\n|---|---|\n"
    "<img src=x onerror=alert(1)> <h1>big</h1> </details> ```"
)


def raises_injected(hypotheses: list, references: list, **config: Any) -> float:
    raise ValueError(INJECTED)
