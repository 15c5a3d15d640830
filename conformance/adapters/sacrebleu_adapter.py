"""Built-in adapter: the live sacrebleu ``BLEU`` metric (corpus_score / sentence_score).

References are handed over in sacrebleu's *streams* layout (``refs[k][i]``); a segment with
fewer references gets ``None`` (sacrebleu: missing) in the remaining streams. Tokenized input
is joined with single spaces and scored with ``tokenize='none'``.

Every tokenizer of the ``sacrebleu`` profile is passed by name (``zh``, ``ja-mecab`` and
``ko-mecab`` need sacrebleu's ``[ja]``/``[ko]`` extras). For ``spm``/``flores101``/
``flores200`` the ``spm_model`` file is placed where sacrebleu reads its models (a temporary
``models`` directory under each file name sacrebleu uses) while the metric is built, so
sacrebleu loads that model instead of downloading its own.
"""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from bleu_impl import get_profile

from ..protocol import Answer, Request
from .base import Adapter, Capabilities, profile_knobs, settable
from .pyerrors import failure_from
from .text import joinable, to_streams


class SacrebleuAdapter(Adapter):
    """Drive ``sacrebleu.metrics.BLEU`` in process (scores on the 0-100 scale)."""

    def __init__(self, timeout: float = 30.0) -> None:
        import sacrebleu
        from sacrebleu.metrics import BLEU

        # its "enable effective_order" advice is about the case, not for the report
        logging.getLogger("sacrebleu").setLevel(logging.ERROR)

        self._BLEU = BLEU
        self.capabilities = Capabilities(
            name="sacrebleu",
            version=sacrebleu.__version__,
            knobs=profile_knobs("sacrebleu"),
            native="sacrebleu",
            scale=100,
            signature=f"c:mixed|e:no|tok:13a|s:exp|v:{sacrebleu.__version__}",
            expect=("sacrebleu",),
            timeout=timeout,
        )

    def check(self, request: Request) -> str | None:
        reason = super().check(request)
        if reason is None and request.input_format == "tokenized" and not joinable(request):
            reason = "sacrebleu takes strings: these tokens cannot be joined with spaces"
        model = request.complete.get("spm_model")
        if reason is None and model is not None and not os.path.isfile(os.path.expanduser(model)):
            reason = f"spm_model {model!r}: no such file (sacrebleu would download its own)"
        return reason

    def _metric(self, request: Request) -> Any:
        knobs = settable(self.capabilities, request.complete)
        if request.input_format == "tokenized":
            knobs["tokenize"] = "none"
        config = get_profile("sacrebleu").resolve(knobs, request.level)
        with spm_models_at(config.spm_model):
            return self._BLEU(
                lowercase=config.lowercase is not False,
                tokenize=config.tokenize,
                smooth_method=config.smoothing,
                smooth_value=config.smoothing_value,
                max_ngram_order=config.max_order,
                effective_order=config.effective_order,
            )

    def run(self, request: Request) -> Answer:
        def text(t: Any) -> Any:
            return t if t is None or isinstance(t, str) else " ".join(t)

        hyps = [text(h) for h in request.hypotheses]
        refs = tuple(tuple(text(r) for r in rs) for rs in request.references)

        def call() -> Any:
            metric = self._metric(request)
            if request.level == "sentence":
                return metric.sentence_score(hyps[0], list(refs[0]))
            return metric.corpus_score(hyps, to_streams(refs))

        try:
            result = call()
        except Exception as exc:
            return Answer(failure=failure_from(exc))
        return Answer(
            score=float(result.score),
            counts=tuple(int(c) for c in result.counts),
            totals=tuple(int(t) for t in result.totals),
            bp=float(result.bp),
            hyp_len=int(result.sys_len),
            ref_len=float(result.ref_len),
        )


@contextmanager
def spm_models_at(model: str | None) -> Iterator[None]:
    """While active, sacrebleu's SentencePiece tokenizers load ``model`` (nothing changes for
    None): its models directory is pointed at a temporary one holding ``model`` under every
    file name of sacrebleu's ``SPM_MODELS``."""
    if model is None:
        yield
        return
    from sacrebleu.tokenizers import tokenizer_spm

    saved = tokenizer_spm.SACREBLEU_DIR
    with tempfile.TemporaryDirectory(prefix="sacrebleu-spm-") as home:
        os.mkdir(os.path.join(home, "models"))
        for name in {os.path.basename(e["url"]) for e in tokenizer_spm.SPM_MODELS.values()}:
            os.symlink(os.path.abspath(model), os.path.join(home, "models", name))
        tokenizer_spm.SACREBLEU_DIR = home
        try:
            yield
        finally:
            tokenizer_spm.SACREBLEU_DIR = saved
