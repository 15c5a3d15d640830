"""What ``score`` prints: the line sacrebleu prints (``BLEU = 50.46 94.4/58.8/43.8/26.7 (BP =
1.000 ratio = 1.000 hyp_len = 18 ref_len = 18)``) and the signature, a row per system, the
bootstrap interval, a line per sentence; or a JSON object per system or sentence."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bleu_impl import BleuResult, EmulatedFailure

from .explain_text import render_explanation
from .numbers import EMPTY, fixed, short
from .textgrid import grid

__all__ = ["ScoreView", "Scored", "confidence", "score_line", "sentence", "systems"]


@dataclass(frozen=True)
class Scored:
    """One system's outcome: a result, or the error and its exit status."""

    system: str
    result: BleuResult | None = None
    error: str = ""
    status: int = 0


@dataclass(frozen=True)
class ScoreView:
    """How ``score`` prints: JSON lines, or only the score, with ``width`` decimals (2 on
    0-100, 4 on 0-1), ``verbose``: every step explained."""

    json_lines: bool = False
    score_only: bool = False
    width: int | None = None
    verbose: bool = False

    def decimals(self, result: BleuResult) -> int:
        return self.width if self.width is not None else (2 if result.config.scale == 100 else 4)

    def score(self, result: BleuResult) -> str:
        return fixed(result.score * result.config.scale, self.decimals(result))


def score_line(result: BleuResult, view: ScoreView) -> str:
    """``BLEU = 50.46 94.4/58.8/43.8/26.7 (BP = 1.000 ratio = 1.000 hyp_len = 18 ...)``:
    precisions with one decimal on 0-100, four on 0-1."""
    scale = result.config.scale
    precisions = "/".join(
        EMPTY if p is None else fixed(p * scale, 1) if scale == 100 else fixed(p, 4)
        for p in result.precisions
    )
    return (
        f"BLEU = {view.score(result)} {precisions} (BP = {fixed(result.bp, 3)} "
        f"ratio = {fixed(result.ratio, 3)} hyp_len = {result.hyp_len} "
        f"ref_len = {short(result.ref_len, 6)})"
    )


def systems(scored: Sequence[Scored], signature: str, view: ScoreView) -> str:
    """Every system scored against the same references, as lines: a JSON object or a score
    each, the line and the signature of one (nothing when it failed), or a row each and the
    signature once."""
    if view.json_lines:
        lines = [
            json.dumps(
                {
                    "system": s.system,
                    **(s.result.to_dict() if s.result else {"error": s.error}),
                    "short_signature": signature,
                }
            )
            for s in scored
        ]
    elif view.score_only:
        lines = [view.score(s.result) if s.result else "error" for s in scored]
    elif len(scored) == 1:
        result = scored[0].result
        lines = [] if result is None else _one(result, score_line(result, view), signature, view)
    else:
        rows = [
            [s.system, "error", s.error]
            if s.result is None
            else [s.system, view.score(s.result), score_line(s.result, view).split(" ", 3)[3]]
            for s in scored
        ]
        lines = [grid(["system", "BLEU", "details"], rows), "", f"signature: {signature}"]
        for s in scored if view.verbose else ():
            if s.result is not None:
                lines += ["", f"{s.system}:\n{render_explanation(s.result)}"]
    return "".join(f"{line}\n" for line in lines)


def _one(result: BleuResult, line: str, signature: str, view: ScoreView) -> list[str]:
    """The score line, the signature, then the steps (the note and the full signature) or
    the note."""
    lines = [line, f"signature: {signature}"]
    if view.verbose:
        from bleu_impl.fast import counted_by  # numpy: only when asked

        lines += [render_explanation(result), f"counted by: {counted_by(result.config)}"]
    elif result.note:
        lines.append(f"note: {result.note}")
    return lines


def confidence(
    result: BleuResult, interval: Any, signature: str, seed: int, view: ScoreView
) -> str:
    """The score with sacrebleu's bootstrap mean and 95% interval, ``(μ = MEAN ± HALF)``
    (``interval``: :func:`bleu_impl.bootstrap_interval`'s, resampled with ``seed``)."""
    digits = view.decimals(result)
    text = f"μ = {fixed(interval.mean, digits)} ± {fixed(interval.half, digits)}"
    signature += f"|bs:{interval.samples}|seed:{seed}"
    if view.json_lines:
        record = result.to_dict()
        record["confidence"] = {**vars(interval), "seed": seed, "text": text}
        return json.dumps({**record, "short_signature": signature}, ensure_ascii=False)
    shown = view.score(result)
    if view.score_only:
        return f"{shown} ({text})"
    line = score_line(result, view).replace(f"BLEU = {shown}", f"BLEU = {shown} ({text})", 1)
    lines = [line, f"signature: {signature}"]
    return "\n".join([*lines, render_explanation(result)] if view.verbose else lines)


def sentence(index: int, result: BleuResult | EmulatedFailure, view: ScoreView) -> str:
    """Line ``index``'s sentence score, or the failure of the emulated tool on it."""
    if isinstance(result, EmulatedFailure):
        if view.json_lines:
            return json.dumps({"line": index, "error": result.kind, "message": str(result)})
        return f"{index}\terror: {result}"
    if view.json_lines:
        return json.dumps({"line": index, **result.to_dict()}, ensure_ascii=False)
    return view.score(result) if view.score_only else f"{index}\t{score_line(result, view)}"
