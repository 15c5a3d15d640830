"""Notes on a user's corpus that change how its BLEU scores should be read.

Chinese, Japanese and Thai are written without spaces between words. Whitespace
tokenization (``none``) then sees each phrase as one token, and ``13a`` splits off only ASCII
punctuation and symbols: both match a phrase only where a system copies it exactly. On WMT22
en-zh (two references) NLTK scores 10 of 13 systems below 1 and one 19 (it copies whole
segments), 13a 16 to 48, ``zh`` 62 to 80: neither measures the words. sacrebleu's command line
picks a tokenizer from the target language (``-l xx-zh``: ``zh``; ``-l xx-ja``:
``ja-mecab``; ``-l xx-ko``: ``ko-mecab``: ``BLEU._TOKENIZER_MAP`` in sacrebleu 2.x
``sacrebleu/metrics/bleu.py``); without ``-l`` it uses ``13a`` for every language.
:func:`script_notes` recognises these scripts in the references and says which knob asks
every implementation to tokenize as sacrebleu would.

:func:`file_notes` names what the files themselves do that changes the scores unseen: a
UTF-8 byte-order mark at the start of some files but not others (read as text, as sacrebleu
reads it), and text in decomposed Unicode (not NFC) in some files but not others (no
implementation normalizes: "ä" as a + U+0308 matches no precomposed "ä").

:func:`system_notes` names systems whose outputs are the same text (a submission given
twice, a contrastive run identical to the primary): they tie under every implementation.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = ["SAMPLE_LINES", "file_notes", "script_notes", "script_of", "system_notes"]

#: Lines of the first reference read for the census (enough to be stable, cheap on 1M lines).
SAMPLE_LINES = 2000

#: Fraction of letters in one script above which the text counts as written in it.
_DOMINANT = 0.5
#: Letters per whitespace-separated token above which the words of these scripts are not
#: space-separated (their words are 1-4 letters long; text segmented into words stays below).
_UNSPACED = 6.0

_ADVICE = {
    "Chinese": ("zh", "-l xx-zh"),
    "Japanese": ("ja-mecab", "-l xx-ja"),
    "Korean": ("ko-mecab", "-l xx-ko"),
}


def script_of(char: str) -> str | None:
    """The writing system of a letter among those BLEU tokenizes differently (Chinese
    ideographs, Japanese kana, Korean Hangul, Thai), else None."""
    code = ord(char)
    if 0x3040 <= code <= 0x30FF or 0x31F0 <= code <= 0x31FF or 0xFF66 <= code <= 0xFF9D:
        return "kana"
    if 0xAC00 <= code <= 0xD7A3 or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F:
        return "Korean"
    if 0x0E00 <= code <= 0x0E7F:
        return "Thai"
    if unicodedata.name(char, "").startswith("CJK UNIFIED IDEOGRAPH"):
        return "han"
    return None


def _census(lines: Iterable[str]) -> tuple[Counter[str], int, int]:
    """Letters per script, all letters, and whitespace-separated tokens."""
    scripts: Counter[str] = Counter()
    letters = tokens = 0
    for line in lines:
        tokens += len(line.split())
        for char in line:
            if char.isalpha():
                letters += 1
                script = script_of(char)
                if script is not None:
                    scripts[script] += 1
    return scripts, letters, tokens


def _language(scripts: Counter[str], letters: int) -> str | None:
    cjk = scripts["han"] + scripts["kana"]
    if cjk >= _DOMINANT * letters and cjk:
        return "Japanese" if scripts["kana"] >= 0.1 * cjk else "Chinese"
    for name in ("Korean", "Thai"):
        if scripts[name] >= _DOMINANT * letters and scripts[name]:
            return name
    return None


def script_notes(references: Iterable[str], knobs: Mapping[str, Any]) -> list[str]:
    """What to know about the references' script (empty when nothing applies or when the
    user already chose a tokenizer with ``--knob tokenize=...``)."""
    if "tokenize" in knobs:
        return []
    sample = [line for line, _ in zip(references, range(SAMPLE_LINES))]
    scripts, letters, tokens = _census(sample)
    language = _language(scripts, letters)
    if language is None:
        return []
    per_token = letters / max(tokens, 1)
    if language == "Korean":  # Korean separates words with spaces: 13a is not degenerate
        return [
            "the references are Korean: sacrebleu's command line tokenizes Korean with "
            "ko-mecab when given -l xx-ko (here: --knob tokenize=ko-mecab, needs the [ko] "
            "extra); without it, as here, every implementation splits on spaces and "
            "punctuation"
        ]
    if per_token < _UNSPACED:
        return []
    if language == "Thai":
        choice = "--knob tokenize=char (sacrebleu has no Thai word tokenizer)"
    else:
        knob, flag = _ADVICE[language]
        extra = ", needs the [ja] extra" if knob == "ja-mecab" else ""
        choice = (
            f"--knob tokenize={knob}{extra}, as sacrebleu's command line does when given {flag}"
        )
    return [
        f"the references are {language} without spaces between words ({per_token:.0f} "
        "letters per whitespace-separated token): whitespace tokenization (none) sees whole "
        "phrases as tokens, and 13a splits off only ASCII punctuation and symbols, so both "
        "count a phrase only where a system copies it exactly (scores near 0 are common: "
        "the numbers say little about the words). "
        f"To score words or characters, add {choice}; implementations that cannot "
        "tokenize that way are then given the text tokenized so, as their users give it"
    ]


def file_notes(files: Sequence[tuple[str, Sequence[str]]]) -> list[str]:
    """Notes on ``files`` (name, lines: the references, then the systems) that some of them
    differ from the others in a way no implementation undoes."""
    notes = []
    marked = [name for name, lines in files if lines and lines[0].startswith("\ufeff")]
    if marked and len(marked) < len(files):
        notes.append(
            f"{_listed(marked)} start(s) with a UTF-8 byte-order mark (U+FEFF) and the other "
            "files do not: it is read as text at the start of line 1, as sacrebleu reads it, "
            "so the first word of line 1 matches no word without the mark; remove it if it "
            "is not meant (sed -i '1s/^\\xEF\\xBB\\xBF//' FILE)"
        )
    decomposed = []
    for name, lines in files:
        odd = [i for i, line in enumerate(lines, 1) if not unicodedata.is_normalized("NFC", line)]
        if odd:
            decomposed.append(f"{name} ({len(odd)} line(s), first: line {odd[0]})")
    if decomposed and len(decomposed) < len(files):
        notes.append(
            f"{_listed(decomposed)} hold(s) text not in Unicode NFC (a letter and a combining "
            "mark where NFC has one precomposed letter, or combining marks out of canonical "
            "order) and the other files do not: no implementation normalizes, so such a word "
            "matches no word written in NFC; normalize every file to NFC (e.g. uconv -x "
            "any-nfc) if this is not meant"
        )
    return notes


def system_notes(systems: Sequence[tuple[str, Sequence[str]]]) -> list[str]:
    """A note per group of systems (name, lines) with the same text on every line (compared
    as sacrebleu reads lines: line-end whitespace aside)."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for name, lines in systems:
        groups.setdefault(tuple(line.rstrip() for line in lines), []).append(name)
    return [
        f"systems {_listed(names, shown=len(names))} are identical (every line, line-end "
        "whitespace aside): every implementation gives them the same score and ranks them "
        "equal; is one file given in place of another?"
        for names in groups.values()
        if len(names) > 1
    ]


def _listed(names: Sequence[str], shown: int = 5) -> str:
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    return ", ".join(names[:shown]) + more
