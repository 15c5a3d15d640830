"""How each implementation is fed a user's corpus under the corpus knobs: as its users feed it.

With ``--knob tokenize=T`` an implementation that has a tokenizer option is asked with it
(its own tokenizer on the text). One that cannot set it (NLTK, torchmetrics... take token
lists and split on whitespace) is given the text tokenized by bleu_impl's ``T`` tokenizer,
as its users tokenize Chinese or Japanese before calling it: token lists, which a string
API receives joined with spaces. It is skipped only when it can be asked neither way, with
both reasons.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bleu_impl import BleuError, Pipeline, make_config

from ...cases.model import Case
from ...cases.usercorpus import UserCorpus
from ...results.vocab import SKIPPED
from ..asking import Reply
from ..subjects import Subject

__all__ = ["Feeder", "Feeding"]

#: The knob a corpus can be fed pre-applied for (the text tokenized before the call).
TOKENIZE = "tokenize"


@dataclass(frozen=True)
class Feeding:
    """How an implementation was given the text: raw (``tokenizer`` None) or as the tokens
    of bleu_impl's ``tokenizer``."""

    tokenizer: str | None = None

    def describe(self, knobs: Mapping[str, Any]) -> str:
        """The words the report prints for this implementation's input."""
        if self.tokenizer is not None:
            return f"pre-tokenized by {self.tokenizer} (it cannot set tokenize itself)"
        if TOKENIZE in knobs:
            return f"raw text, its own tokenize={knobs[TOKENIZE]}"
        return "raw text"


class Feeder:
    """The cases of every system, raw (with the corpus knobs) and, when ``tokenize`` is one
    of them, pre-tokenized (the other knobs), built on first use."""

    def __init__(self, corpus: UserCorpus, knobs: Mapping[str, Any]) -> None:
        self.corpus = corpus
        self.knobs = dict(knobs)
        self.raw = [corpus.case(j, knobs) for j in range(len(corpus.system_files))]
        self._tokenized: list[Case] | str | None = None

    def replies(self, subject: Subject) -> tuple[list[Reply], Feeding]:
        """``subject``'s reply on every system and how it was fed: raw first; pre-tokenized
        when the raw request is skipped and ``tokenize`` is a corpus knob."""
        first = subject.reply(self.raw[0])
        if first.status == SKIPPED and TOKENIZE in self.knobs:
            tokenized = self.tokenized()
            if isinstance(tokenized, str):
                return [_skip(first, tokenized)] * len(self.raw), Feeding()
            fed = [subject.reply(case) for case in tokenized]
            if fed[0].status != SKIPPED:
                return fed, Feeding(self.knobs[TOKENIZE])
            return [_skip(first, fed[0].reason)] * len(self.raw), Feeding()
        return [first, *(subject.reply(case) for case in self.raw[1:])], Feeding()

    def tokenized(self) -> list[Case] | str:
        """Every system's case as the tokens of the ``tokenize`` knob (or why not)."""
        if self._tokenized is None:
            self._tokenized = self._tokenize()
        return self._tokenized

    def _tokenize(self) -> list[Case] | str:
        name = self.knobs[TOKENIZE]
        try:
            return self._cases(name, Pipeline(make_config({TOKENIZE: name}), "reference"))
        except BleuError as exc:  # a missing optional tokenizer (DependencyError)
            return f"the {name} tokenizer cannot run here: {exc}"

    def _cases(self, name: str, pipeline: Pipeline) -> list[Case]:
        memo: dict[str, tuple[str, ...]] = {}

        def tokens(lines: Sequence[str]) -> list[tuple[str, ...]]:
            new = [line for line in dict.fromkeys(lines) if line not in memo]
            memo.update(zip(new, map(tuple, pipeline.batch(new))))
            return [memo[line] for line in lines]

        corpus = self.corpus
        refs = [tokens(stream) for stream in corpus.references]
        rest = {k: v for k, v in self.knobs.items() if k != TOKENIZE}
        return [
            Case.from_texts(
                case.id,
                tokens(corpus.outputs[j]),
                [list(r) for r in zip(*refs)],
                config=rest,
                tags=case.tags,
                file=case.file,
                source=case.source,
                description=f"{case.description}, pre-tokenized by {name}",
            )
            for j, case in enumerate(self.raw)
        ]


def _skip(raw: Reply, why: str) -> Reply:
    """The skip of an implementation that can be fed neither way (both reasons)."""
    return Reply(SKIPPED, reason=f"{raw.reason}; pre-tokenized: {why}")
