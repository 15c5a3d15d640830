"""Replay every output of the real Perl scripts through the matching bleu_impl profile.

Tolerance: 1e-9 relative to the full-precision (``%.15g``) value; the printed value must
also come out identical under the script's own format.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest

import bleu_impl
from bleu_impl import EmulatedFailure

CASES = json.loads((Path(__file__).parents[1] / "data" / "perl_scripts.json").read_text("utf-8"))

#: script variant -> (profile, knob overrides), the flags as docs/perl-scripts.md maps them.
VARIANTS = {
    "mteval-v13a": ("mteval-v13a", {}),
    "mteval-v13a-c": ("mteval-v13a", {"lowercase": False}),
    "mteval-v13a-nosmooth": ("mteval-v13a", {"smoothing": "none"}),
    "mteval-v13a-c-nosmooth": ("mteval-v13a", {"lowercase": False, "smoothing": "none"}),
    "mteval-v13a-shortest": ("mteval-v13a", {"ref_length": "shortest"}),
    "mteval-v14": ("mteval-v14", {}),
    "mteval-v14-c": ("mteval-v14", {"lowercase": False}),
    "multi-bleu": ("multi-bleu", {}),
    "multi-bleu-lc": ("multi-bleu", {"lowercase": "ascii"}),
    "multi-bleu-detok": ("multi-bleu-detok", {}),
    "multi-bleu-detok-lc": ("multi-bleu-detok", {"lowercase": "perl-lc"}),
}

#: Outputs bleu_impl deliberately does not reproduce, with the reason.
NOT_EMULATED = {
    ("detok_chop_no_final_newline", "multi-bleu-detok"): "file-reading bug (chop eats the last "
    "character of a final line without newline); not emulated (docs/perl-scripts.md)",
    ("detok_chop_no_final_newline", "multi-bleu-detok-lc"): "same chop bug",
}


def segments(case: dict) -> tuple[list[str], list[list[str]]]:
    """Per-segment references; a null is an empty line, unless no stream has a line for the
    segment at all, in which case the reference file was shorter (multi-bleu: missing)."""
    hyps = case["hypotheses"]
    refs = []
    for i in range(len(hyps)):
        column = [stream[i] for stream in case["references"]]
        refs.append([] if all(r is None for r in column) else [r or "" for r in column])
    return hyps, refs


def params():
    for case in CASES:
        for variant, output in case["outputs"].items():
            if "exit_code" not in output:  # mteval was not run on this case
                continue
            marks = ()
            reason = NOT_EMULATED.get((case["id"], variant))
            if reason:
                marks = (pytest.mark.xfail(reason=reason, strict=True),)
            yield pytest.param(case, variant, output, id=f"{case['id']}::{variant}", marks=marks)


def _counts(fp: dict) -> list[tuple[int, int]] | None:
    raw = fp.get("counts_matched_over_total_1to4") or fp.get("counts_correct_over_total_1to4")
    if raw is None:
        return None
    pairs = [item.split("/") for item in raw]
    return [(0 if m == "undef" else int(m), 0 if t == "undef" else int(t)) for m, t in pairs]


def _expected_failure_kind(output: dict) -> str:
    stderr = " ".join(output.get("stderr_head", []))
    printed = " ".join(output.get("printed", []))
    if "ref_len=0" in printed or ("Illegal division by zero" in stderr and "mteval" in stderr):
        return "empty-reference"
    return "empty-hypothesis"


@pytest.mark.parametrize(("case", "variant", "output"), list(params()))
def test_perl_output(case: dict, variant: str, output: dict) -> None:
    profile, knobs = VARIANTS[variant]
    hyps, refs = segments(case)
    if output["exit_code"] != 0:
        with pytest.raises(EmulatedFailure) as failure:
            bleu_impl.corpus_bleu(hyps, refs, profile=profile, **knobs)
        assert failure.value.kind == _expected_failure_kind(output)
        return
    result = bleu_impl.corpus_bleu(hyps, refs, profile=profile, **knobs)
    fp = output["full_precision"]
    scale = 100 if output["scale"] == "0-100" else 1
    got = result.score * scale
    assert math.isclose(got, fp["bleu"], rel_tol=1e-9, abs_tol=1e-12), (got, fp["bleu"])
    fmt = "{:.2f}" if scale == 100 else "{:.4f}"
    assert fmt.format(got) == fmt.format(output["bleu"])
    pairs = _counts(fp)
    if pairs is not None:
        assert list(zip(result.counts, result.totals)) == pairs
    if "hyp_len" in fp:
        assert (result.hyp_len, result.ref_len) == (fp["hyp_len"], fp["ref_len"])
    if "bp" in fp:
        assert math.isclose(result.bp, fp["bp"], rel_tol=1e-9)
    if "ratio" in fp and fp.get("ref_len"):
        assert math.isclose(
            float(Fraction(result.hyp_len, result.ref_len)), fp["ratio"], rel_tol=1e-9
        )


def test_every_variant_is_mapped() -> None:
    seen = {variant for case in CASES for variant in case["outputs"]}
    assert seen == set(VARIANTS)
