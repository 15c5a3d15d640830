"""Lowercasing rules: ``perl-lc`` is Perl's ``lc`` (checked against a live perl), ``ascii``
and ``unicode`` differ from it where the scripts and sacrebleu differ."""

from __future__ import annotations

import shutil
import subprocess
import sys
import unicodedata

import pytest

from bleu_impl.tokenizers.casing import CONTEXT_FREE, LOWERCASERS, lower_perl

#: Perl 5.36's lc of every code point whose lc differs from itself, as "HEX HEX,HEX" lines.
_PERL_LC_TABLE = r"""
binmode(STDOUT, ":utf8");
for my $cp (0 .. 0x10FFFF) {
    next if $cp >= 0xD800 && $cp <= 0xDFFF;
    my $c = chr($cp); utf8::upgrade($c);   # a decoded string, as multi-bleu-detok reads
    my $l = lc($c);
    printf "%X %s\n", $cp, join(",", map { sprintf "%X", ord } split //, $l) if $l ne $c;
}
"""


@pytest.mark.skipif(shutil.which("perl") is None, reason="perl is not installed")
def test_perl_lc_equals_the_live_perl_on_every_code_point() -> None:
    perl = subprocess.run(
        ["perl", "-e", "use Unicode::UCD; print Unicode::UCD::UnicodeVersion()"],
        capture_output=True,
        text=True,
    )
    if perl.returncode != 0 or perl.stdout.strip() != unicodedata.unidata_version:
        pytest.skip(
            f"perl's Unicode {perl.stdout.strip()!r} differs from Python's "
            f"{unicodedata.unidata_version} (case mappings may differ)"
        )
    table = subprocess.run(
        ["perl", "-e", _PERL_LC_TABLE], capture_output=True, text=True, check=True
    ).stdout
    perl_lc = {}
    for line in table.splitlines():
        cp, low = line.split()
        perl_lc[int(cp, 16)] = "".join(chr(int(x, 16)) for x in low.split(","))
    ours = {}
    for cp in range(sys.maxunicode + 1):
        if not 0xD800 <= cp <= 0xDFFF and lower_perl(chr(cp)) != chr(cp):
            ours[cp] = lower_perl(chr(cp))
    assert ours == perl_lc
    # and a whole string is each character on its own (no context rule in Perl's lc)
    assert lower_perl("ΟΔΟΣ ΣΟΦΟΣ. ΑΣ") == "οδοσ σοφοσ. ασ"


def test_only_python_lower_has_the_final_sigma_rule() -> None:
    assert LOWERCASERS["unicode"]("ΟΔΟΣ") == "οδος"
    assert LOWERCASERS["perl-lc"]("ΟΔΟΣ") == "οδοσ"
    assert LOWERCASERS["ascii"]("ΟΔΟΣ AB") == "ΟΔΟΣ ab"
    assert LOWERCASERS["perl-lc"]("İ K") == "i\u0307 k"  # full mapping, Kelvin sign to k


def test_context_free_rules_commute_with_inserting_spaces() -> None:
    text = "ΟΔΟΣ.ΑΒΓ İ\u212aA,Σ"
    for name in CONTEXT_FREE:
        lower = LOWERCASERS[name]
        assert "".join(lower(c) for c in text) == lower(text)
    assert LOWERCASERS["unicode"]("ΟΔΟΣ .") != "".join(c.lower() for c in "ΟΔΟΣ .")
