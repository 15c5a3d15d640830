"""The Perl scripts: NIST mteval-v13a.pl / mteval-v14.pl and Moses multi-bleu(-detok).perl.

What each script does beyond the textbook formula, all checked against the real scripts
(docs/perl-scripts.md; fixtures/mteval-v13a/ and fixtures/multi-bleu/):

* mteval lowercases (``tr/[A-Z]/[a-z]/``) after its case-sensitive ``<skipped>`` removal and
  entity decoding (``lowercase_stage="after-entities"``): ``AT&AMP;T`` gives ``at & amp ; t``.
* mteval-v13a dies (``Can't take log of 0``) when the system brevity penalty underflows to
  0.0 in its length-ratio print (``bp_underflow="error"``); ``--no-smoothing`` and v14 do not
  print it.
* multi-bleu(-detok) start the closest-length search from (difference 9999, length 9999)
  (``ref_length="closest-9999"``) and die when no reference file has a line
  (``no_refs="error"``).
* multi-bleu-detok ``-lc`` lowercases hypotheses before tokenizing and references after
  (``lowercase_stage="hyp-before-ref-after"``), with Perl's ``lc``: no final-sigma rule
  (``lowercase="perl-lc"``).
"""

from __future__ import annotations

from .model import Option, Profile, Rule

__all__ = ["PROFILES"]

_MTEVAL_COMMON = {
    "tokenize": "13a",
    "split": "perl-unicode",
    "lowercase": "ascii",
    "lowercase_stage": "after-entities",
    "ref_length": "closest",
    "smoothing": "nist",
    "absent_order": "one",
    "zero_match": "zero",
    "early_zero": "none",
    "empty_hyp": "error",
    "empty_ref": "error",
}

_MTEVAL_NOSMOOTH = Rule(
    when={"smoothing": "none"},
    then={
        "early_zero": "any-zero-order",
        "absent_order": "zero",
        "empty_hyp": "bp-zero",
        "empty_ref": "rule",
        "bp_underflow": "zero",
    },
    why="--no-smoothing (bleu_score_nosmoothing) scores 0 when any order, absent orders "
    "included, has no match, and never reaches the system-level length-ratio print that dies",
)

_MULTIBLEU_COMMON = {
    "ref_length": "closest-9999",
    "missing_refs": "len-9999",
    "no_refs": "error",
    "smoothing": "none",
    "absent_order": "zero",
    "zero_match": "zero",
    "early_zero": "none",
    "empty_hyp": "error",
    "empty_ref": "error",
    "scale": 100,
}

_MULTIBLEU_FAILURES = {
    "empty-hypothesis": "multi-bleu dies on an empty system (hypothesis length 0) with "
    "'Illegal division by zero' in its brevity penalty",
    "empty-reference": "multi-bleu prints 'BLEU = 0, 0/0/0/0 (BP=0, ratio=0, hyp_len=0, "
    "ref_len=0)' and exits 1 when the reference length is 0",
    "missing-reference": "multi-bleu dies with 'ERROR: could not find reference file' when no "
    "reference file has a line (it counts the lines read, not the files found)",
}

PROFILES: tuple[Profile, ...] = (
    Profile(
        name="mteval-v13a",
        summary="NIST mteval-v13a.pl: 13a tokenization, ASCII lowercasing after entity "
        "decoding, NIST geometric smoothing with absent orders as 1; dies on an empty "
        "system, empty references or a brevity penalty that underflows to 0.",
        source="moses-smt/mosesdecoder@34452895 scripts/generic/mteval-v13a.pl",
        defaults={**_MTEVAL_COMMON, "bp_underflow": "error"},
        rules=(_MTEVAL_NOSMOOTH,),
        failures={
            "empty-hypothesis": "mteval-v13a.pl dies on an empty system (hypothesis "
            'length 0): "Can\'t take log of 0" in its system-level length-ratio print',
            "empty-reference": "mteval-v13a.pl dies when the system reference length is "
            '0: "Illegal division by zero" in its length-ratio print',
            "bp-underflow": "mteval-v13a.pl dies when the system brevity penalty "
            'exp(1 - r/c) underflows to 0.0 (r/c above about 746): "Can\'t take log of 0" '
            "in its length-ratio print (exit status 34, ERANGE)",
        },
        options={
            "lowercase": Option("-c (case-sensitive: lowercase=False)", ("ascii", False)),
            "smoothing": Option("--no-smoothing (smoothing=none)", ("nist", "none")),
            "ref_length": Option(
                "--brevity-penalty shortest (ref_length=shortest)", ("closest", "shortest")
            ),
        },
    ),
    Profile(
        name="mteval-v14",
        summary="mteval-v14.pl: as mteval-v13a but with no length-ratio print, so an "
        "empty system scores 0, empty references give BP 1 and an underflowing brevity "
        "penalty scores 0.",
        source="moses-smt/mosesdecoder@34452895 scripts/generic/mteval-v14.pl",
        defaults={**_MTEVAL_COMMON, "empty_hyp": "bp-zero", "empty_ref": "rule"},
        rules=(_MTEVAL_NOSMOOTH,),
        options={
            "lowercase": Option("-c (case-sensitive: lowercase=False)", ("ascii", False)),
            "smoothing": Option("--no-smoothing (smoothing=none)", ("nist", "none")),
        },
    ),
    Profile(
        name="multi-bleu",
        summary="Moses multi-bleu.perl: whitespace tokens split on ASCII whitespace "
        "(bytes), no smoothing (any zero order gives 0.00), closest length from (9999, "
        "9999), dies on an empty system or without any reference line, special line on "
        "empty references.",
        source="moses-smt/mosesdecoder@34452895 scripts/generic/multi-bleu.perl",
        defaults={**_MULTIBLEU_COMMON, "tokenize": "none", "split": "perl-bytes"},
        failures=_MULTIBLEU_FAILURES,
        options={"lowercase": Option("-lc (lowercase=ascii)", (False, "ascii"))},
    ),
    Profile(
        name="multi-bleu-detok",
        summary="Moses multi-bleu-detok.perl: multi-bleu on 13a-tokenized UTF-8 text, "
        "case-sensitive; -lc is Perl lc (Unicode, no final sigma; since 2019-02-27) on "
        "hypotheses before and references after tokenizing.",
        source="moses-smt/mosesdecoder@34452895 scripts/generic/multi-bleu-detok.perl",
        defaults={
            **_MULTIBLEU_COMMON,
            "tokenize": "13a",
            "split": "perl-unicode",
            "lowercase_stage": "hyp-before-ref-after",
        },
        failures=_MULTIBLEU_FAILURES,
        options={"lowercase": Option("-lc (lowercase=perl-lc)", (False, "perl-lc"))},
    ),
)
