"""A case whose tokenizer needs an optional package that is not installed is a skip naming
the ``pip install`` that enables it, for every implementation (here live sacrebleu), not its
failure."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

#: Runs ``run`` with MeCab's modules made unimportable (as without the [ja] extra).
_WITHOUT_MECAB = """
import sys
sys.modules["MeCab"] = None  # an import of MeCab now raises ImportError
sys.modules["mecab_ko"] = None
from conformance.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_tokenizer_whose_package_is_missing_is_a_skip_with_the_pip_install(tmp_path):
    fixtures = ROOT / "fixtures" / "sacrebleu" / "tokenizers.yaml"
    argv = ["run", "-q", "--impl", "sacrebleu", "--fixtures", str(fixtures), "--format", "json"]
    proc = subprocess.run(
        [sys.executable, "-c", _WITHOUT_MECAB, *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    results = json.loads(proc.stdout)["results"]
    mecab = [r for r in results if "mecab" in r["case_id"]]
    assert mecab, "the fixture file has ja-mecab / ko-mecab cases"
    assert all(r["outcome"] == "skip" for r in mecab), {r["outcome"] for r in mecab}
    reasons = {r["reason"] for r in mecab}
    assert any("pip install 'bleu-conformance[ja]'" in r for r in reasons), reasons
    assert any("pip install 'bleu-conformance[ko]'" in r for r in reasons), reasons
    others = [r for r in results if "mecab" not in r["case_id"]]
    assert any(r["outcome"] == "pass" for r in others)
