"""Tokenizers and splits on the behaviours of mteval-v13a.pl's and sacrebleu's tokenizers."""

from __future__ import annotations

import pytest

from bleu_impl.knobs import make_config
from bleu_impl.tokenizers import make_tokenizer


def tok(text, **knobs):
    return list(make_tokenizer(make_config(knobs))(text))


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("3.14 and 1,000", ["3.14", "and", "1,000"]),  # . and , stay between digits
        ("in 2023.", ["in", "2023", "."]),  # padding splits a final period after digits
        (".5", [".", "5"]),
        ("3-4 state-of-the-art -5", ["3", "-", "4", "state-of-the-art", "-5"]),
        (
            "it's a \u201cquote\u201d \u2014 \u20ac5",
            ["it's", "a", "\u201cquote\u201d", "\u2014", "\u20ac5"],
        ),
        ("&quot;x&quot; &amp;lt; &apos;", ['"', "x", '"', "<", "&", "apos", ";"]),
        ("a<skipped>b", ["ab"]),
        ("co-\nop x\ny", ["coop", "x", "y"]),
        ("(a)[b]{c}!?", ["(", "a", ")", "[", "b", "]", "{", "c", "}", "!", "?"]),
    ],
)
def test_13a(text: str, tokens: list[str]) -> None:
    assert tok(text, tokenize="13a") == tokens


def test_intl_keeps_final_number_period_and_splits_symbols() -> None:
    assert tok("in 2023.", tokenize="intl") == ["in", "2023."]
    assert tok("It's \u20ac5 3.5", tokenize="intl") == ["It", "'", "s", "\u20ac", "5", "3.5"]


def test_char_drops_whitespace() -> None:
    assert tok("ab c", tokenize="char") == ["a", "b", "c"]


def test_splits_differ_on_nbsp_and_info_separators() -> None:
    text = "a\u00a0b\x1fc d"
    assert tok(text, split="python") == ["a", "b", "c", "d"]
    assert tok(text, split="perl-unicode") == ["a", "b\x1fc", "d"]
    assert tok(text, split="perl-bytes") == ["a\u00a0b\x1fc", "d"]


def test_lowercase_ascii_vs_unicode() -> None:
    assert tok("\u00c9COLE Paris", lowercase="ascii") == ["\u00c9cole", "paris"]
    assert tok("\u00c9COLE Paris", lowercase="unicode") == ["\u00e9cole", "paris"]


def test_token_sequences_are_taken_as_given() -> None:
    assert tok(["Hello,", "world"], tokenize="13a") == ["Hello,", "world"]
    assert tok(["Hello,"], lowercase="unicode") == ["hello,"]


def test_rstrip_matters_for_intl() -> None:
    assert tok("1,000. ", tokenize="intl") == ["1,000", "."]
    assert tok("1,000. ", tokenize="intl", line_prep="rstrip") == ["1,000."]


#: texar-pytorch 0.1.4 ``texar.torch.evals.bleu_transformer.bleu_transformer_tokenize`` (its
#: copy of tensor2tensor's ``bleu_hook.bleu_tokenize``), run live on Python 3.11.
T2T_LIVE = [
    ("5 ½!", ["5", "½", "!"]),
    ("3,5 ⅷ.", ["3,5", "ⅷ", "."]),
    ("a\\b", ["a\\b"]),
    ("Ⅻ.x", ["Ⅻ", ".", "x"]),
    ("in 2023.", ["in", "2023."]),
    ("It's 5 ½! Ⅻ. x², ③.", ["It", "'", "s", "5", "½", "!", "Ⅻ", ".", "x²", ",", "③", "."]),
    ("a-b ^c$ 1,000.5", ["a", "-", "b", "^", "c", "$", "1,000.5"]),
    ("٣.x 「引用」", ["٣", ".", "x", "「", "引用", "」"]),
]


@pytest.mark.parametrize(("text", "expected"), T2T_LIVE)
def test_t2t_is_tensor2tensors_bleu_tokenize(text, expected):
    assert tok(text, tokenize="t2t") == expected


def test_t2t_and_intl_differ_on_a_non_decimal_numeral():
    assert tok("5 ½!", tokenize="intl") == ["5", "½!"]
    assert tok("5 ½!", tokenize="t2t") == ["5", "½", "!"]


def test_t2t_is_tensor2tensors_rules_as_written_on_every_class_character():
    """tensor2tensor's ``bleu_tokenize`` as its bleu_hook writes it (every P* / S* character
    put into brackets unescaped) and ours give the same text around each such character,
    the backslash and ASCII, between letters and digits."""
    import re
    import sys
    import unicodedata

    from bleu_impl.tokenizers.intl import tokenize_t2t

    def written(prefix: str) -> str:
        chars = (chr(x) for x in range(sys.maxunicode))
        return "".join(c for c in chars if unicodedata.category(c).startswith(prefix))

    punct, symbols = written("P"), written("S")
    rules = (
        (re.compile(r"([^\d])([" + punct + "])"), r"\1 \2 "),
        (re.compile("([" + punct + r"])([^\d])"), r" \1 \2"),
        (re.compile("([" + symbols + "])"), r" \1 "),
    )
    tried = sorted({*punct, *symbols, *map(chr, range(128))})
    line = " ".join(f"a{c}b 1{c}2 {c}" for c in tried)
    theirs = line
    for pattern, replacement in rules:
        theirs = pattern.sub(replacement, theirs)
    assert tokenize_t2t(line) == theirs
