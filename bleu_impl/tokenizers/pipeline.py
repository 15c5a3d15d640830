"""The tokenizing pipeline: a segment's tokens under the ``lowercase``, ``lowercase_stage``,
``line_prep``, ``tokenize`` and ``split`` knobs.

A ``str`` goes through these steps, in this order: ``line_prep`` (sacrebleu ``rstrip``-s each
line), tokenize (the tokenizer inserts spaces), split on whitespace; ``lowercase`` applies at
the ``lowercase_stage``:

* ``before-tokenize``: to the raw line (sacrebleu, multi-bleu, multi-bleu-detok's hypotheses);
* ``after-entities``: after the tokenizer's case-sensitive steps (13a's ``<skipped>`` removal
  and entity decoding), before its splitting rules: mteval's ``tr``, so ``&AMP;`` stays
  undecoded and ``<SKIPPED>`` stays in. Tokenizers without such steps lowercase the line;
* ``after-tokenize``: to each token (torchmetrics' ``SacreBLEUScore``; a lowercase expansion
  such as ``İ`` -> ``i̇`` stays one ``char`` token);
* ``hyp-before-ref-after``: hypotheses before tokenizing, references after
  (multi-bleu-detok ``-lc`` tokenizes its references when it reads them and lowercases them
  when it scores).

So a pipeline tokenizes one *role*, ``hypothesis`` or ``reference``; :func:`pipelines` gives
both (the same object when the stage does not depend on the role). A token sequence is taken
as given; only ``lowercase`` applies, token by token.

:class:`Pipeline` holds the steps of one :class:`~bleu_impl.knobs.Config` and runs them on
one segment with the readable reference tokenizers (:meth:`Pipeline.segment`), or with the
fast equivalents on one line (:meth:`Pipeline.line`) or a batch of lines
(:meth:`Pipeline.batch`): same tokens, checked by ``tests/bleu_impl/tokenizers/``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..errors import InputError
from ..knobs import Config
from .all_tokenizers import TOKENIZERS, load_tokenizer
from .casing import CONTEXT_FREE, LOWERCASERS
from .intl import decode_mteval_intl, tokenize_intl
from .tok13a import decode_13a, rules_13a
from .whitespace import LONG_TEXT, SPLITTERS, UNWINDOWED, split_shared

__all__ = ["ROLES", "TOKENIZERS", "Pipeline", "make_tokenizer", "pipelines"]

ROLES = ("hypothesis", "reference")

Step = Callable[[str], str]


#: Tokenizers with case-sensitive steps: (those steps, the rest), for ``after-entities``.
_DECODING: dict[str, tuple[Step, Step]] = {
    "13a": (decode_13a, rules_13a),
    "mteval-intl": (decode_mteval_intl, tokenize_intl),
}


def _stage(config: Config, role: str) -> str:
    """Where ``role``'s text is lowercased ('' if it is not)."""
    if not config.lowercase:
        return ""
    stage = config.lowercase_stage
    if stage == "hyp-before-ref-after":
        return "before-tokenize" if role == "hypothesis" else "after-tokenize"
    if stage == "after-entities" and config.tokenize not in _DECODING:
        return "before-tokenize"  # no case-sensitive step to come after
    return stage


#: Above this many tokens a text's lowercased tokens are shared like its tokens.
_MANY_TOKENS = 1 << 16


class Pipeline:
    """line_prep → tokenize → split, lowercasing at the configured stage, for one config
    and one role (``hypothesis`` or ``reference``)."""

    def __init__(self, config: Config, role: str = "hypothesis") -> None:
        if role not in ROLES:
            raise ValueError(f"role must be one of {', '.join(ROLES)}, not {role!r}")
        self.config = config
        self.role = role
        self.stage = _stage(config, role)
        lower = LOWERCASERS[config.lowercase] if config.lowercase else None
        self._lower = lower
        self._lower_line = lower if self.stage == "before-tokenize" else None
        self._lower_tokens = lower if self.stage == "after-tokenize" else None
        self._rstrip = config.line_prep == "rstrip"
        tokenizer = load_tokenizer(config)
        self._tokenize: Step = tokenizer.reference
        self._tokenize_line: Step = tokenizer.line
        self._tokenize_batch: Callable[[list[str]], list[str]] = (
            tokenizer.batch or self._tokenize_lines
        )
        if self.stage == "after-entities":
            self._lower_inside(config.tokenize, config.lowercase in CONTEXT_FREE)
        # str.split is split_python without a Python frame per line.
        self._split: Callable[[str], list[str]] = (
            str.split if config.split == "python" else SPLITTERS[config.split]
        )

    def _lower_inside(self, name: str, context_free: bool) -> None:
        """Lowercase between the tokenizer's case-sensitive steps and its rules. A
        context-free rule commutes with the rules (they only insert spaces around ASCII
        punctuation and digits), so the fast tokenizers lowercase their output."""
        lower = self._lower
        assert lower is not None
        decode, rules = _DECODING[name]
        self._tokenize = lambda line: rules(lower(decode(line)))
        if context_free:
            line_tokenize, batch_tokenize = self._tokenize_line, self._tokenize_batch
            self._tokenize_line = lambda line: lower(line_tokenize(line))
            self._tokenize_batch = lambda lines: list(map(lower, batch_tokenize(lines)))
        else:
            self._tokenize_line = self._tokenize
            self._tokenize_batch = self._tokenize_lines

    def _prepare(self, line: str) -> str:
        """The steps before tokenizing: lowercase (``before-tokenize``), ``line_prep``."""
        if self._lower_line is not None:
            line = self._lower_line(line)
        return line.rstrip() if self._rstrip else line

    def _finish(self, tokens: list[str]) -> list[str]:
        """Lowercase the tokens (``after-tokenize``)."""
        lower = self._lower_tokens
        if lower is None:
            return tokens
        if len(tokens) <= _MANY_TOKENS:
            return list(map(lower, tokens))
        lowered: dict[str, str] = {}  # a long text's tokens: each distinct one lowered once
        return [lowered[t] if t in lowered else lowered.setdefault(t, lower(t)) for t in tokens]

    def segment(self, segment: str | Sequence[str]) -> tuple[str, ...]:
        """The tokens of a raw ``str`` (reference tokenizers) or of a given token sequence
        (checked to hold only ``str`` tokens, then lowercased if configured)."""
        if isinstance(segment, str):
            return tuple(self._finish(self._split_text(self._tokenize(self._prepare(segment)))))
        if isinstance(segment, bytes):
            raise InputError("segments must be str or token sequences, not bytes")
        tokens = tuple(segment)
        if not all(isinstance(t, str) for t in tokens):
            raise InputError("a token sequence must contain only str tokens")
        return tuple(map(self._lower, tokens)) if self._lower else tokens

    def line(self, line: str) -> list[str]:
        """The tokens of one raw line, equal to ``segment(line)`` (the fast tokenizers)."""
        return self._finish(self._split_text(self._tokenize_line(self._prepare(line))))

    def batch(self, lines: list[str]) -> list[list[str]]:
        """The tokens of every raw line, equal to ``[segment(x) for x in lines]`` as lists."""
        return self.split_texts(self.unsplit(self.prepared(lines)))

    def prepared(self, lines: list[str]) -> list[str]:
        """Every raw line before tokenizing: lowercased (``before-tokenize``), stripped."""
        if self._lower_line is not None:
            lines = list(map(self._lower_line, lines))
        return list(map(str.rstrip, lines)) if self._rstrip else lines

    def unsplit(self, prepared: list[str]) -> list[str]:
        """Every :meth:`prepared` line tokenized, not yet split on whitespace (then
        ``split_texts``: ``batch``; the compiled kernel splits them itself)."""
        return self._tokenize_batch(prepared)

    def split_texts(self, texts: list[str]) -> list[list[str]]:
        """The tokens of texts from :meth:`unsplit` (split, then lowercased if configured)."""
        long = bool(texts) and max(map(len, texts)) > LONG_TEXT
        split = map(self._split_text if long else self._split, texts)
        return list(split) if self._lower_tokens is None else list(map(self._finish, split))

    @property
    def splits_last(self) -> bool:
        """Whether splitting is the last step (no lowercasing of the tokens after it)."""
        return self._lower_tokens is None

    def _split_text(self, text: str) -> list[str]:
        """The split of ``text``; a long one with equal tokens shared (bounded memory)."""
        if len(text) <= LONG_TEXT or self.config.split in UNWINDOWED:
            return self._split(text)
        return split_shared(self._split, text)

    def _tokenize_lines(self, lines: list[str]) -> list[str]:
        return [self._tokenize_line(line) for line in lines]


def pipelines(config: Config) -> tuple[Pipeline, Pipeline]:
    """The hypothesis and reference pipelines of ``config`` (one object when they agree)."""
    hypothesis = Pipeline(config, "hypothesis")
    if _stage(config, "reference") == hypothesis.stage:
        return hypothesis, hypothesis
    return hypothesis, Pipeline(config, "reference")


def make_tokenizer(
    config: Config, role: str = "hypothesis"
) -> Callable[[str | Sequence[str]], tuple[str, ...]]:
    """``Pipeline(config, role).segment``: a raw string or a token sequence to tokens."""
    return Pipeline(config, role).segment
