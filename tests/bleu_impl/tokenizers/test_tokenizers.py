"""Tokenizers and splits on the behaviours of mteval-v13a.pl's and sacrebleu's tokenizers."""

from __future__ import annotations

import re
import sys
from unicodedata import category

import pytest

from bleu_impl.knobs import make_config
from bleu_impl.tokenizers import make_tokenizer
from bleu_impl.tokenizers.intl import tokenize_t2t


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


def _tensor2tensor_tokenize(text: str) -> str:
    """bleu_hook.bleu_tokenize as tensor2tensor writes it: three ``re`` rules, the classes
    the unicodedata categories P* and S* pasted into brackets unescaped."""
    every = [chr(c) for c in range(sys.maxunicode)]
    chars = {p: "".join(c for c in every if category(c)[0] == p) for p in "PS"}
    text = re.sub(r"([^\d])([" + chars["P"] + "])", r"\1 \2 ", text)
    text = re.sub("([" + chars["P"] + r"])([^\d])", r" \1 \2", text)
    return re.sub("([" + chars["S"] + "])", r" \1 ", text)


def test_t2t_equals_tensor2tensors_three_rules_on_every_punctuation_and_symbol():
    """Every P* and S* code point (and some of every other category) between a letter and a
    digit, and doubled: the translation table is the third rule exactly."""
    sample = [chr(c) for c in range(sys.maxunicode) if category(chr(c))[0] in "PS" or c % 97 == 0]
    text = " ".join(f"a{c}5{c}{c}x" for c in sample if not chr(0xD800) <= c <= chr(0xDFFF))
    assert tokenize_t2t(text) == _tensor2tensor_tokenize(text)


def test_t2t_and_intl_differ_on_a_non_decimal_numeral():
    assert tok("5 ½!", tokenize="intl") == ["5", "½!"]
    assert tok("5 ½!", tokenize="t2t") == ["5", "½", "!"]
