"""13a for the fast path: a whole chunk of lines per call, same tokens as ``tokenize_13a``.

13a (``tokenizers.tok13a``) on a chunk joined by ``" \\n "`` (after 13a's first step no line
contains a newline, and every line is padded with a space on both sides, so no rule sees
across lines). 13a only inserts spaces, so only *where* it inserts them matters for the
tokens; the regex passes are replaced by exact equivalents built from ``str.replace``:

* punctuation rule: every character of its class becomes ``" c "`` (a space in the class only
  becomes three spaces, which no later rule and no split can tell from one space);
* the two ``.``/``,`` rules, composed (their left-to-right consumption included), split
  every maximal run ``P_1..P_m`` of ``.``/``,`` (left neighbour ``c``, right ``d``) from
  its neighbours and inside, except the gap before ``d`` when ``d`` is a digit and ``m`` is
  odd exactly when ``c`` is a digit; for ``m = 1`` the gap after ``c`` then stays too
  (``3.5``, ``1,000``);
* ``([0-9])(-)``: every ``-`` right after a digit becomes ``" - "``.

Lowercasing stays per line (Unicode lowercasing of a final sigma looks at context), and so
does splitting. ``tests/bleu_impl/tokenizers/test_tok13a_batch.py`` checks this against the
reference 13a on every short string over a digit/letter/punctuation alphabet.
"""

from __future__ import annotations

import re

from .tok13a import ENTITIES, PUNCT, tokenize_13a

__all__ = ["apply_rules_padded", "tokenize_13a_batch", "tokenize_13a_line"]

#: Every non-space character that 13a's punctuation rule spaces out.
_PUNCT_CHARS = tuple(chr(c) for c in range(33, 128) if PUNCT.fullmatch(chr(c)))
_RUN = re.compile(r"[.,]{2,}")
_DIGIT_PERIOD_DIGIT = re.compile(r"\.(?<=[0-9]\.)(?=[0-9])")
_DIGIT_COMMA_DIGIT = re.compile(r",(?<=[0-9],)(?=[0-9])")
_DASH_AFTER_DIGIT = re.compile(r"-(?<=[0-9]-)")
_DIGITS = frozenset("0123456789")
#: Candidate placeholders for protected ``.``/``,`` (two not present in the text are used).
_PLACEHOLDERS: tuple[str, ...] = (
    "\x00",
    "\x01",
    "\x02",
    "\x03",
    "\ue000",
    "\ue001",
    "\ufdd0",
    "\ufdd1",
)


def _prepare(line: str) -> str:
    """13a's first step (``<skipped>``, hyphen-newline joins, newlines to spaces)."""
    if "\n" in line or "<skipped>" in line:
        return line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    return line


_HIDE: dict[tuple[str, str], dict[int, str]] = {}


def _period_comma(text: str, period: str, comma: str) -> str:
    """The composed ``.``/``,`` rules; ``text`` is padded, ``period``/``comma`` are free."""
    hide = _HIDE.get((period, comma))
    if hide is None:
        hide = _HIDE[(period, comma)] = str.maketrans({".": period, ",": comma})

    def run(match: re.Match[str]) -> str:
        string, start, end = match.string, match.start(), match.end()
        glued = string[end] in _DIGITS and ((end - start) % 2 == 1) == (
            string[start - 1] in _DIGITS
        )
        return " " + " ".join(match.group().translate(hide)) + ("" if glued else " ")

    if ".." in text or ".," in text or ",." in text or ",," in text:
        text = _RUN.sub(run, text)
    if "." in text:
        text = _DIGIT_PERIOD_DIGIT.sub(period, text).replace(".", " . ")
    if "," in text:
        text = _DIGIT_COMMA_DIGIT.sub(comma, text).replace(",", " , ")
    return text.replace(period, ".").replace(comma, ",")


def _isolated_13a(text: str) -> str | None:
    """13a's entity decoding and rules on padded ``text``; None if no two placeholders are
    free."""
    if "&" in text:
        for entity, char in ENTITIES:
            text = text.replace(entity, char)
    return apply_rules_padded(text)


def apply_rules_padded(text: str) -> str | None:
    """Token string equivalent to ``apply_rules(text)`` when ``text`` starts and ends with a
    space (several lines joined by ``" \\n "`` stay apart); None if no two placeholders are
    free (then use ``apply_rules``)."""
    if "\x00" not in text and "\x01" not in text:
        free = _PLACEHOLDERS
    else:
        free = tuple(p for p in _PLACEHOLDERS if p not in text)
        if len(free) < 2:
            return None
    for char in _PUNCT_CHARS:
        if char in text:
            text = text.replace(char, f" {char} ")
    text = _period_comma(text, free[0], free[1])
    if "-" in text:
        text = _DASH_AFTER_DIGIT.sub(" - ", text)
    return text


def tokenize_13a_batch(lines: list[str]) -> list[str]:
    """Token strings equivalent (after any whitespace split) to ``map(tokenize_13a, lines)``."""
    if not lines:
        return []
    done = _isolated_13a(" " + " \n ".join(_prepare(line) for line in lines) + " ")
    if done is None:
        return [tokenize_13a(line) for line in lines]
    return done.split("\n")


def tokenize_13a_line(line: str) -> str:
    """Token string equivalent (after any whitespace split) to ``tokenize_13a(line)``."""
    done = _isolated_13a(f" {_prepare(line)} ")
    return tokenize_13a(line) if done is None else done
