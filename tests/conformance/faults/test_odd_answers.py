"""Fault injection: answers of odd types and sizes, exceptions that are not Exceptions,
floods without a newline, programs that leave a daemon behind. Each is an error state naming
what was wrong (garbage is never converted by guessing, never a crash of the harness), and
correct answers in numpy types are not taken for garbage."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from ..helpers import MINI
from .common import HOSTILE, JSONL, cli, pids, run_json, wait_gone

EXACT = ("-k", "mini.exact")
ROOT = Path(__file__).parents[3]


def answered(report: dict) -> list[dict]:
    return [r for r in report["results"] if r["outcome"] != "skip"]


@pytest.mark.parametrize(
    ("fake", "says"),
    [
        ("returns_true", "score: True is not a number"),
        ("returns_numpy_bool", "score: np.True_ is not a number"),
        ("returns_text", "score: '1.0' is not a number"),
        ("returns_huge_int", "score: 1000000000000000000000000000000"),
        ("returns_negative", "score: -0.5 is less than the minimum of 0"),
        ("counts_halves", "counts[0]: 6.5 is not a whole number"),
        ("counts_text", "counts[0]: '6' is not a whole number"),
        ("huge_bp", "bp: 1000000000000000000000000000000"),
        ("returns_numpy_text", "score: array('1.0', dtype='<U3') is not a number"),
        ("returns_numpy_truth", "score: array(True) is not a number"),
        ("returns_numpy_object", "score: array('1.0', dtype=object) is not a number"),
        ("returns_numpy_complex", "score: np.complex128(1+1j) is not a number"),
        ("bp_numpy_text", "bp: array('1.0', dtype='<U3') is not a number"),
        ("returns_broken_mapping", "'score' is a required property"),
    ],
)
def test_an_odd_python_answer_is_garbage_never_a_guess(capsys, fake, says):
    status, report = run_json(capsys, "--impl", f"{HOSTILE}:{fake}", *EXACT)
    assert status == 1
    [result] = answered(report)
    assert result["outcome"] == "error"
    assert result["reason"].startswith("garbage: ") and says in result["reason"]


def test_numpy_numbers_are_numbers(capsys):
    pytest.importorskip("numpy")
    status, report = run_json(capsys, "--impl", f"{HOSTILE}:numpy_statistics", *EXACT)
    assert [r["outcome"] for r in answered(report)] == ["pass"], report["results"][0]["reason"]
    assert status == 0


@pytest.mark.parametrize(
    ("fake", "says"),
    [
        ("raises_base_exception", "crash: the implementation raised _Custom: not an Exception"),
        ("raises_unprintable", "_Unprintable: (its message cannot be shown"),
    ],
)
def test_odd_exceptions_are_the_implementations_not_an_adapter_bug(capsys, fake, says):
    status, report = run_json(capsys, "--impl", f"{HOSTILE}:{fake}", *EXACT)
    [result] = answered(report)
    assert status == 1 and result["outcome"] == "error"
    assert says in result["reason"] and "adapter bug" not in result["reason"]


def test_a_stderr_flood_without_newline_keeps_its_tail(capsys):
    """Read in chunks (bounded memory), the flood's end is shown with the case."""
    status, report = run_json(capsys, "--impl", f"{HOSTILE}:floods_stderr", *EXACT)
    [result] = answered(report)
    assert status == 0 and result["outcome"] == "pass"
    assert result["stderr"].endswith("END-OF-FLOOD")


def jsonl(mode: str, extra: str = "") -> str:
    arg = f"{mode}:{extra}" if extra else mode
    return f"jsonl:{JSONL} {shlex.quote(arg)}"


@pytest.mark.parametrize(
    ("line", "says"),
    [
        (
            '{"seq": {seq}, "score": 0.5, "bp": 1' + "0" * 400 + "}",
            "bp: 1000000000000000000000000000000",
        ),
        ('{"seq": {seq}, "score": 1' + "0" * 5000 + "}", "Exceeds the limit"),
        ('{"seq": {seq}, "score": 0.5, "x": ' + "[" * 50_000 + "]" * 50_000 + "}", "recursion"),
        ('{"seq": {seq}, "failure": {"kind": ' + "[" * 600 + "]" * 600 + "}}", "failure.kind: [[["),
        ('{"seq": {seq}, "score": 0.5, "score": 1.0}', "duplicate key 'score'"),
        ('{"seq": {seq}, "score": 1.0, "counts": [6, 5, 4, 3], "counts": [1]}', "key 'counts'"),
    ],
)
def test_json_numbers_python_cannot_hold_are_garbage(capsys, line, says):
    status, report = run_json(capsys, "--impl", jsonl("answer-raw", line), *EXACT)
    assert status == 1
    [result] = answered(report)
    assert result["outcome"] == "error"
    assert result["reason"].startswith("garbage: ") and says in result["reason"]


def test_500000_counts_are_refused_by_their_number_not_kept(capsys, tmp_path):
    log = tmp_path / "run.jsonl"
    status, report = run_json(capsys, "--impl", jsonl("many-counts"), *EXACT, "--output", str(log))
    [result] = answered(report)
    assert status == 1
    assert result["reason"].startswith("garbage: counts: must be at most 100 items (got 500,000)")
    assert log.stat().st_size < 20_000


def test_a_sequence_number_of_another_type_is_a_protocol_error(capsys):
    status, report = run_json(capsys, "--impl", jsonl("answer-raw", '{"seq": 1.0, "score": 1}'))
    assert status == 1
    assert "protocol: answer has seq 1.0" in answered(report)[0]["reason"]


def test_an_endless_stdout_line_is_garbage_not_a_memory_sink(capsys):
    status, report = run_json(capsys, "--impl", jsonl("endless-line"), "--timeout", "20", *EXACT)
    [result] = answered(report)
    assert status == 1
    assert result["reason"] == "garbage: a line longer than 16 MiB on stdout"


def test_a_protocol_programs_stderr_flood_keeps_its_tail(capsys):
    status, report = run_json(capsys, "--impl", jsonl("stderr-flood"), *EXACT)
    [result] = answered(report)
    assert status == 0 and result["outcome"] == "pass"
    assert result["stderr"].endswith("END-OF-FLOOD")


def _command(tmp_path, script: str, regex: str = "") -> str:
    adapter = tmp_path / "command.yaml"
    lines = [
        "kind: command",
        "name: odd",
        f"template: bash -c {shlex.quote(script)}",
        "timeout: 10",
        "expect: [papineni2002]",
    ]
    if regex:
        lines.append(f"regex: '{regex}'")
    adapter.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(adapter)


#: Runs ARGV[2:] with its stdout into the file ARGV[1]; prints the largest resident set of
#: that process and of every process it waited for (its workers and adapters), in MB.
PEAK_RSS = (
    "import resource, subprocess, sys\n"
    "with open(sys.argv[1], 'wb') as out:\n"
    "    subprocess.run(sys.argv[2:], stdout=out, stderr=subprocess.DEVNULL, check=False)\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)\n"
)


@pytest.mark.slow
@pytest.mark.parametrize(
    "spec", [f"{HOSTILE}:floods_200_mb_of_stderr", jsonl("stderr-flood", "200")]
)
def test_a_200_mb_stderr_flood_is_read_in_bounded_memory(tmp_path, spec):
    """A harness that kept the flood (or its worker or reader, decoding it whole) would peak
    above 200 MB; read in chunks, every process stays far below."""
    report = tmp_path / "report.json"
    argv = ["run", "--fixtures", str(MINI), "--impl", spec, *EXACT, "--format", "json"]
    cli_argv = [sys.executable, "-m", "conformance.cli", *argv]
    peak = subprocess.run(
        [sys.executable, "-c", PEAK_RSS, str(report), *cli_argv],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    [result] = answered(json.loads(report.read_text(encoding="utf-8")))
    assert result["outcome"] == "pass" and result["stderr"].endswith("END-OF-FLOOD")
    assert 0 < int(peak.stdout) < 150


def test_a_command_leaving_a_daemon_on_its_stdout_is_answered_not_timed_out(capsys, tmp_path):
    pid_file = tmp_path / "pids"
    spec = _command(tmp_path, f"sleep 300 & echo $! >> {pid_file}; echo 1.0")
    status, report = run_json(capsys, "--impl", spec, *EXACT)
    [result] = answered(report)
    assert (status, result["outcome"]) == (0, "pass"), result["reason"]
    started = pids(pid_file)
    assert started and wait_gone(started) == []


def test_a_command_flooding_stdout_is_garbage(capsys, tmp_path):
    spec = _command(tmp_path, "head -c 20000000 /dev/zero; echo 1.0")
    status, report = run_json(capsys, "--impl", spec, *EXACT)
    [result] = answered(report)
    assert status == 1
    assert result["reason"].startswith("garbage: ") and "more than 16 MiB" in result["reason"]


def test_a_printed_length_beyond_a_float_is_garbage_not_a_crash(capsys, tmp_path):
    spec = _command(
        tmp_path, f"echo BLEU 0.5 len 1{'0' * 400}", r"BLEU (?P<score>\S+) len (?P<hyp_len>\d+)"
    )
    status, out, err = cli(capsys, "run", "--fixtures", str(MINI), "--impl", spec, *EXACT)
    assert status == 1 and "Traceback" not in err
    assert "hyp_len: inf is not a whole number" in out


def test_a_program_that_stops_reading_its_input_times_out(capsys, tmp_path):
    """A request bigger than the pipe's buffer, to a program that no longer reads: the
    harness's write blocked past the timeout (and past SIGTERM) until the program ended."""
    text = MINI.read_text(encoding="utf-8")
    long = " ".join(f"w{i % 50}" for i in range(60_000))  # ~300 kB: above any pipe buffer
    cases = tmp_path / "long.yaml"
    cases.write_text(text.replace("hypothesis: a dog barked at the cat", f"hypothesis: {long}"))
    argv = ["--impl", jsonl("stops-reading"), "--timeout", "2", "-k", "mini.partial"]
    status, report = run_json(capsys, *argv, fixtures=cases)
    [result] = answered(report)
    assert status == 1
    assert result["reason"] == "timeout: the request was not read within 2s"


def test_an_output_regex_that_backtracks_is_bounded_by_the_timeout(capsys, tmp_path):
    """A pattern that backtracks exponentially on the output ran after the command exited,
    outside every timeout: the match now runs with the case's timeout."""
    spec = _command(tmp_path, "printf 'x%.0s' $(seq 3000)", regex="(?P<score>(x+x+)+y)")
    status, report = run_json(capsys, "--impl", spec, "--timeout", "2", *EXACT)
    [result] = answered(report)
    assert status == 1 and result["outcome"] == "error"
    assert result["reason"].startswith("timeout: the output regex did not finish within 2s")


def test_the_multi_bleu_pattern_reads_a_line_and_repeats_only_within_it():
    """multi-bleu's pattern has no unbounded ``.*`` (630 kB of ``BLEU = 1,`` took 20 s per
    case, quadratically) and still reads the script's line."""
    from conformance.adapters.command import MULTI_BLEU_REGEX

    assert ".*" not in MULTI_BLEU_REGEX
    import regex

    line = "BLEU = 50.46, 94.4/58.8/43.8/26.7 (BP=1.000, ratio=1.000, hyp_len=18, ref_len=18)"
    match = regex.search(MULTI_BLEU_REGEX, line)
    assert match is not None and match.group("score", "hyp_len") == ("50.46", "18")


def test_a_daemon_that_left_the_group_does_not_outlive_the_run(capsys, tmp_path):
    """``setsid`` takes a child out of the command's process group (and session): it is
    found by the mark it inherited in its environment and killed with the command."""
    pid_file = tmp_path / "pids"
    spec = _command(tmp_path, f"setsid sleep 300 & echo $! >> {pid_file}; echo 1.0")
    status, report = run_json(capsys, "--impl", spec, *EXACT)
    [result] = answered(report)
    assert (status, result["outcome"]) == (0, "pass"), result["reason"]
    started = pids(pid_file)
    assert started and wait_gone(started) == []
