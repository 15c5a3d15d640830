"""The ``zh`` tokenizer of sacrebleu 2.x (``TokenizerZh``, sacrebleu/tokenizers/tokenizer_zh.py).

Steps: strip the line (``str.strip``: every Unicode whitespace at both ends), put a space on
each side of every "Chinese" character, then apply the four regex rules of ``13a``
(:func:`~bleu_impl.tokenizers.tok13a.apply_rules`) to the bare line: no ``<skipped>``
removal, no entity decoding and no padding, unlike ``13a``.

"Chinese" is what sacrebleu's ``_is_chinese_char`` returns True for, which is not quite
what its range list says: two entries are written with five hex digits (``'\\u20000'``,
``'\\u2a6d6'``, ``'\\u2f800'``, ``'\\u2fa1d'``), which Python reads as a four-digit escape
plus a character. ``'\\u20000' <= c <= '\\u2a6d6'`` therefore holds for U+2001..U+2A6D
(general punctuation, arrows, symbols and dingbats) and never for the supplementary-plane
Extension B it meant; ``'\\u2f800'..'\\u2fa1d'`` holds for U+2F81..U+2FA1 (inside the Kangxi
radicals). Hiragana, katakana and Hangul are not in the list. :data:`CHINESE_RANGES` is the
union as executed; ``tests/bleu_impl/tokenizers/test_zh.py`` checks it against sacrebleu's
function on every BMP code point.
"""

from __future__ import annotations

from functools import cache

from .tok13a import apply_rules
from .tok13a_batch import apply_rules_padded

__all__ = ["CHINESE_RANGES", "is_chinese", "tokenize_zh", "tokenize_zh_batch", "tokenize_zh_line"]

#: The code points sacrebleu 2.x's ``_is_chinese_char`` accepts (inclusive, merged, sorted).
CHINESE_RANGES: tuple[tuple[int, int], ...] = (
    (0x2001, 0x2A6D),  # '\u20000'..'\u2a6d6' as executed; contains U+2600-26FF, U+2700-27BF
    (0x2E80, 0x2EFF),  # CJK radicals supplement
    (0x2F00, 0x2FDF),  # Kangxi radicals; contains '\u2f800'..'\u2fa1d' (U+2F81-2FA1)
    (0x2FF0, 0x2FFF),  # ideographic description characters
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0x3100, 0x312F),  # bopomofo
    (0x31A0, 0x31EF),  # bopomofo extended, CJK strokes
    (0x3200, 0x33FF),  # enclosed CJK letters, CJK compatibility
    (0x3400, 0x4DB5),  # CJK unified ideographs extension A (Unicode 3.0)
    (0x4E00, 0x9FBB),  # CJK unified ideographs (Unicode 1.1 + 4.1)
    (0xF900, 0xFA2D),  # CJK compatibility ideographs
    (0xFA30, 0xFA6A),
    (0xFA70, 0xFAD9),
    (0xFE10, 0xFE1F),  # vertical forms
    (0xFE30, 0xFE4F),  # CJK compatibility forms
    (0xFF00, 0xFFEF),  # half- and full-width forms
)


@cache
def _spaced() -> dict[int, str]:
    """code point -> the character with a space on each side (a ``str.translate`` table of
    ~32k entries, built on first use)."""
    return {
        code: f" {chr(code)} " for start, end in CHINESE_RANGES for code in range(start, end + 1)
    }


#: A stripped line starting or ending with one of these tokenizes differently with padding.
_EDGE = frozenset(".,")


def is_chinese(char: str) -> bool:
    """Whether sacrebleu's ``zh`` tokenizer spaces out ``char`` (one character)."""
    return ord(char) in _spaced()


def tokenize_zh(line: str) -> str:
    """Return ``line`` tokenized as sacrebleu's ``zh``, tokens separated by whitespace."""
    return apply_rules(line.strip().translate(_spaced()))


def _padding_safe(line: str) -> bool:
    """Whether the rules give the same tokens on ``" " + line + " "`` as on ``line``
    (``line`` stripped). Padding only adds a non-digit neighbour at both ends, which
    matters to the ``.``/``,`` rules alone, and only for a ``.``/``,`` at an end."""
    return not line or (line[0] not in _EDGE and line[-1] not in _EDGE)


def tokenize_zh_line(line: str) -> str:
    """Token string equivalent (after any whitespace split) to ``tokenize_zh(line)``."""
    line = line.strip()
    if _padding_safe(line):
        done = apply_rules_padded(f" {line.translate(_spaced())} ")
        if done is not None:
            return done
    return apply_rules(line.translate(_spaced()))


def tokenize_zh_batch(lines: list[str]) -> list[str]:
    """Token strings equivalent (after any whitespace split) to ``map(tokenize_zh, lines)``:
    one ``translate`` and one pass of the padded rules over the chunk joined by ``" \\n "``;
    lines that padding would change (or that hold a newline) are tokenized alone."""
    if not lines:
        return []
    stripped = [line.strip() for line in lines]
    text = " \n ".join(stripped)
    done = None
    if text.count("\n") == len(lines) - 1:
        done = apply_rules_padded(f" {text.translate(_spaced())} ")
    if done is None:
        return [tokenize_zh(line) for line in stripped]
    out = done.split("\n")
    for i, line in enumerate(stripped):
        if line and (line[0] in _EDGE or line[-1] in _EDGE):
            out[i] = tokenize_zh(line)
    return out
