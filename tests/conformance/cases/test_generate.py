"""The generated corpora: deterministic from the seed, and reaching the text on which the
tokenizers people use disagree."""

from __future__ import annotations

import re
import sys
import unicodedata

from bleu_impl import corpus_bleu
from conformance.cases import generate_cases


def _chars(prefix: str) -> str:
    return "".join(
        chr(x) for x in range(sys.maxunicode) if unicodedata.category(chr(x)).startswith(prefix)
    )


# tensor2tensor's bleu_hook.bleu_tokenize (tensorflow/tensor2tensor utils/bleu_hook.py
# UnicodeRegex), as the intl-style code derived from it writes it: Python ``re``, where \d is
# a decimal digit only, with character classes built from unicodedata categories.
_PUNCT = re.escape(_chars("P"))
_NONDIGIT_PUNCT = re.compile(r"([^\d])([" + _PUNCT + r"])")
_PUNCT_NONDIGIT = re.compile(r"([" + _PUNCT + r"])([^\d])")
_SYMBOL = re.compile("([" + re.escape(_chars("S")) + "])")


def _t2t_tokens(text: str) -> list[str]:
    text = _NONDIGIT_PUNCT.sub(r"\1 \2 ", text)
    text = _PUNCT_NONDIGIT.sub(r" \1 \2", text)
    return _SYMBOL.sub(r" \1 ", text).split()


def _t2t_bleu(hyps: list[str], refs: list[list[str]]) -> float:
    tokens = [[_t2t_tokens(r) for r in rs] for rs in refs]
    return corpus_bleu([_t2t_tokens(h) for h in hyps], tokens, profile="sacrebleu").score


def test_generation_is_deterministic_from_the_seed():
    assert generate_cases(30, 7) == generate_cases(30, 7)
    assert generate_cases(30, 7) != generate_cases(30, 8)


def test_generated_text_reaches_the_unicode_categories_tokenizers_disagree_on():
    cases = generate_cases(100, 0)
    assert {c.input.format for c in cases} == {"raw", "tokenized"}  # tokens with spaces too
    texts = [t for c in cases for s in c.input.segments for t in (s.hypothesis, *s.references)]
    text = "".join(t if isinstance(t, str) else " ".join(t or ()) for t in texts)
    categories = {unicodedata.category(c) for c in text}
    wanted = {"No", "Nl", "Nd", "Sc", "Sm", "Sk", "So", "Pd", "Ps", "Pe", "Pi", "Pf", "Po"}
    assert wanted | {"Pc", "Mn", "Cf", "Zs", "Zl", "Lm"} <= categories
    for piece in ("’", "ʼ", "‐", "–", "—", "。", "（", "https://", "@", "\u200b"):
        assert piece in text, piece


def test_a_python_re_intl_tokenizer_is_separated_from_sacrebleus_intl():
    """The example that identify once missed: on a final ``5 ½!`` against ``5 ½ !`` the
    Python-``re`` tokenizer splits the ``!`` (½ is not a decimal digit) and sacrebleu's does
    not (½ is a number, ``\\p{N}``); the generated corpora must contain such text."""
    hyp, ref = ["it is 5 ½!"], [["it is 5 ½ !"]]
    assert _t2t_bleu(hyp, ref) == 1.0
    assert corpus_bleu(hyp, ref, profile="sacrebleu", tokenize="intl").score < 1
    separating = [
        case.id
        for case in generate_cases(60, 0)
        if case.input.format == "raw"
        and None not in {r for s in case.input.segments for r in s.references}
        and corpus_bleu(
            case.input.hypotheses, case.input.references, profile="sacrebleu", tokenize="intl"
        ).score
        != _t2t_bleu(case.input.hypotheses, [list(r) for r in case.input.references])
    ]
    assert separating
