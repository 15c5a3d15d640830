"""The live libraries (``--impl nltk``, ``sacrebleu``...): one :class:`Library` declaration
each, plus the one function that calls it, all driven by :class:`LibraryAdapter` (which
:func:`~conformance.adapters.make_adapter` runs in a worker process).

A library's name is also the bleu_impl profile of its fixed behaviour: the knobs it can set
(and to what) come from that profile, a request's knobs are resolved under it, and its
arithmetic (float32 for the torch libraries) is the profile's. torchtext is absent: its last
wheel (0.18) does not load with torch 2.13 (its C++ extension is built against torch 2.3), so
its profile rests on its own test suite's numbers.
"""

from __future__ import annotations

import inspect
import logging
import os
import re
import sys
import tempfile
import warnings
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from importlib import import_module
from types import ModuleType
from typing import Any

from bleu_impl import PROFILES, Config, KnobError, get_profile

from ..protocol import Answer, Failure, Request
from .base import (
    Adapter,
    Capabilities,
    profile_arithmetic,
    profile_knobs,
    settable,
    unexpressible,
)
from .optional import not_installed
from .pyerrors import failure_from, message_of
from .shims import apply_shims
from .text import as_line, joinable, split_tokens, to_streams

__all__ = [
    "LIBRARIES",
    "WARM_UP_REQUEST",
    "Library",
    "LibraryAdapter",
    "release_key",
    "release_profile",
]

#: ``score(module, config, level, hypotheses, references)``: the score on the library's
#: scale, or a whole :class:`Answer` (with statistics, or a failure found before calling it).
Score = Callable[[ModuleType, Config, str, list[Any], list[list[Any]]], "float | Answer"]


@dataclass(frozen=True)
class Library:
    """What drives one live library.

    * ``name``: the ``--impl`` spec, the reported name and the native bleu_impl profile;
      ``module``: imported once (in the worker) and handed to ``score``; ``distribution``:
      whose version is reported (the name); ``extra``: this project's extra installing it.
    * ``strings``: it takes strings (token lists joined with spaces; tokens holding
      whitespace are a skip), else token lists (raw text split with ``str.split()``);
      ``missing``: a missing reference is handed over as None instead of left out.
    * ``tokenized_knobs``: knobs set for already tokenized input; ``refuse``: why the complete
      semantics asked for cannot be expressed beyond what its profile says (or None).
    * ``error``: (exception class, text in its message, failure kind) of a documented error.
    * ``undeclared``: release -> packages it imports without declaring them (installed
      beside it in its environment and named in its version).
    * ``scale``, ``signature`` (``{version}`` filled in) and ``timeout``: its capabilities;
      ``warm_up``: answer one tiny request before the first case (a slow first call).
    """

    name: str
    module: str
    score: Score
    distribution: str = ""
    extra: str = ""
    strings: bool = False
    missing: bool = False
    scale: int = 1
    signature: str = ""
    timeout: float = 30.0
    warm_up: bool = False
    tokenized_knobs: Mapping[str, Any] = field(default_factory=dict)
    refuse: Callable[[Mapping[str, Any]], str | None] | None = None
    error: tuple[str, str, str] | None = None
    undeclared: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def imports_undeclared(self, release: str) -> tuple[str, ...]:
        """The packages ``release`` imports without declaring them."""
        key = release_key(release)
        return next((p for r, p in self.undeclared.items() if release_key(r) == key), ())

    @property
    def package(self) -> str:
        """The distribution's name on PyPI."""
        return self.distribution or self.name

    @property
    def install(self) -> str:
        """What to ``pip install`` for it."""
        return f"'bleu-conformance[{self.extra}]' ({self.package})" if self.extra else self.package


#: One four-token segment, matched exactly: valid for every tool at every order up to 4.
WARM_UP_REQUEST = Request(
    level="corpus", config={}, hypotheses=("the cat sat down",), references=(("the cat sat down",),)
)


class LibraryAdapter(Adapter):
    """Drive the live library ``name`` (a key of :data:`LIBRARIES`) in process; with
    ``release`` (``--impl nltk==3.2.5``, run in that release's environment) the import-time
    shims it needs are applied first and named in its version."""

    def __init__(self, name: str, release: str | None = None) -> None:
        self.library = lib = LIBRARIES[name]
        self.module, shims = _imported(lib.module, shimmed=release is not None)
        from importlib.metadata import version  # ~50 ms: when a library is driven

        installed = version(lib.package)
        if release and release_key(installed) != release_key(release):
            raise ImportError(f"{lib.package} {installed} is installed, not {release}")
        native = release_profile(name, release) if release else name
        extra = lib.imports_undeclared(release) if release else ()
        self.capabilities = Capabilities(
            name=f"{name}=={release}" if release else name,
            version=installed
            + (f" (shims: {', '.join(shims)})" if shims else "")
            + (f" (with {', '.join(extra)}, imported but not declared)" if extra else ""),
            knobs=profile_knobs(name),
            native=native,
            scale=lib.scale,
            signature=lib.signature.format(version=installed),
            # its own recorded outputs, its profile's, then the library's keys for its release
            expect=tuple(dict.fromkeys((f"{name}=={release}", native, name)))
            if release
            else (native,),
            timeout=lib.timeout,
            arithmetic=profile_arithmetic(native),
        )

    def check(self, request: Request) -> str | None:
        # a release is asked what its own profile can express and what the library's
        # current release is asked (every release the same questions across a sweep)
        lib = self.library
        reason = unexpressible(self.capabilities, request)
        if reason is not None and self.capabilities.native != lib.name:
            reason = unexpressible(replace(self.capabilities, native=lib.name), request)
        tokens = request.input_format == "tokenized"
        if reason is None and lib.strings and tokens and not joinable(request):
            reason = f"{lib.package} takes strings: these tokens cannot be joined with spaces"
        if reason is None and lib.refuse is not None:
            reason = lib.refuse(request.complete)
        missing = not_installed(request) if reason is None else None
        return f"not installed in {lib.package}'s environment: {missing}" if missing else reason

    def warm_up(self) -> None:
        if self.library.warm_up:
            self.run(WARM_UP_REQUEST)

    def run(self, request: Request) -> Answer:
        lib = self.library
        knobs = settable(self.capabilities, request.complete)
        if request.input_format == "tokenized":
            knobs.update(lib.tokenized_knobs)
        shape = as_line if lib.strings else split_tokens
        hyps = [shape(h) for h in request.hypotheses]
        refs = [
            [None if r is None else shape(r) for r in rs if lib.missing or r is not None]
            for rs in request.references
        ]
        try:
            config = self._config(knobs, request.level)
            value = lib.score(self.module, config, request.level, hyps, refs)
        except Exception as exc:  # a library raising is an answer (AssertionError, KeyError...)
            return Answer(failure=failure_from(exc, _kind(lib.error, exc)))
        return value if isinstance(value, Answer) else Answer(score=float(value))

    def _config(self, knobs: dict[str, Any], level: str) -> Config:
        """The library's profile with ``knobs``; where its current release has no such
        setting, the release's own profile (3.1's unsmoothed ``bleu()`` is smoothing=none)."""
        try:
            return get_profile(self.library.name).resolve(knobs, level)
        except KnobError:
            native = self.capabilities.native
            if native in (None, self.library.name):
                raise
            return get_profile(native).resolve(knobs, level)


def release_key(release: str) -> tuple[int, ...]:
    """``3.2.5`` -> (3, 2, 5): release numbers in order (``1.4.0.post0`` after 1.4.0);
    trailing zeros dropped, as pip compares (``3.3.0`` is ``3.3``)."""
    numbers = [int(n) for n in re.findall(r"[0-9]+", release)]
    while numbers and numbers[-1] == 0:
        numbers.pop()
    return tuple(numbers)


def release_profile(name: str, release: str) -> str:
    """The profile measured to reproduce ``release`` of the library ``name`` (its
    ``releases`` range), else the library's own profile (its current release's)."""
    package, key = LIBRARIES[name].package, release_key(release)
    for profile in PROFILES.values():
        span = profile.releases
        if span and span[0] == package and release_key(span[1]) <= key <= release_key(span[2]):
            return profile.name
    return name


def _imported(name: str, shimmed: bool) -> tuple[ModuleType, tuple[str, ...]]:
    """The module ``name``; when its import fails and ``shimmed``, imported again after the
    shims this Python needs (:mod:`.shims`), with their names (none when it imports as is)."""
    try:
        return import_module(name), ()
    except Exception:
        if not shimmed:
            raise
    root = name.split(".")[0]
    for loaded in [m for m in sys.modules if m == root or m.startswith(root + ".")]:
        del sys.modules[loaded]
    shims = apply_shims()
    return import_module(name), shims


def _kind(error: tuple[str, str, str] | None, exc: BaseException) -> str | None:
    """The failure kind of ``exc`` when it is the documented ``error`` (or a subclass)."""
    if error is None or error[0] not in {c.__name__ for c in type(exc).__mro__}:
        return None
    return error[2] if error[1] in message_of(exc) else None


def _nltk(bleu: ModuleType, config: Config, level: str, hyps: list[Any], refs: Any) -> float:
    """``sentence_bleu``/``corpus_bleu`` with the weights, ``SmoothingFunction(epsilon,
    alpha, k)``'s method of ``smoothing`` (nltk-method0..7) and ``auto_reweigh`` (passed only
    when set: releases before 3.2.2 lack it). Releases before 3.2 have only
    ``bleu(references, hypothesis, weights)``: unsmoothed sentence BLEU."""
    weights = tuple(config.order_weights)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if not hasattr(bleu, "sentence_bleu"):
            unsmoothed = config.smoothing in ("none", "nltk-method0")
            if level != "sentence" or not unsmoothed or config.auto_reweigh:
                raise TypeError("this release has only bleu(): unsmoothed sentence BLEU")
            first = next(iter(inspect.signature(bleu.bleu).parameters))
            pair = (refs[0], hyps[0]) if first.startswith("reference") else (hyps[0], refs[0])
            return float(bleu.bleu(*pair, weights))
        smoother = bleu.SmoothingFunction(epsilon=config.epsilon, alpha=config.alpha, k=config.k)
        kwargs = {
            "weights": weights,
            "smoothing_function": getattr(smoother, config.smoothing.replace("nltk-", "")),
        }
        if config.auto_reweigh:
            kwargs["auto_reweigh"] = True
        if level == "sentence":
            return float(bleu.sentence_bleu(refs[0], hyps[0], **kwargs))
        return float(bleu.corpus_bleu(refs, hyps, **kwargs))


def _sacrebleu(module: ModuleType, config: Config, level: str, hyps: Any, refs: Any) -> Answer:
    """``BLEU(...).sentence_score`` or ``corpus_score`` over reference streams (``refs[k][i]``,
    None where segment i has no k-th reference); tokenizers are passed by name. Releases
    before 2.0 take the same settings as arguments of ``sentence_bleu``/``corpus_bleu``."""
    # its "enable effective_order" advice is about the case, not for the report
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    metrics = getattr(module, "metrics", None)
    bleu_class = getattr(metrics, "BLEU", None)
    if bleu_class is None or "lowercase" not in inspect.signature(bleu_class).parameters:
        result = _sacrebleu_1x(module, config, level, hyps, refs)
    else:
        with spm_models_at(config.spm_model):
            metric = bleu_class(
                lowercase=config.lowercase is not False,
                tokenize=config.tokenize,
                smooth_method=config.smoothing,
                smooth_value=config.smoothing_value,
                max_ngram_order=config.max_order,
                effective_order=config.effective_order,
            )
        if level == "sentence":
            result = metric.sentence_score(hyps[0], refs[0])
        else:
            result = metric.corpus_score(hyps, to_streams(refs))
    return Answer(
        score=float(result.score),
        counts=tuple(int(c) for c in result.counts),
        totals=tuple(int(t) for t in result.totals),
        bp=float(result.bp),
        hyp_len=int(result.sys_len),
        ref_len=float(result.ref_len),
    )


#: Each setting's argument names in sacrebleu 1.x's functions (1.0-1.2 used the second).
_SACREBLEU_1X = {
    "smooth_method": ("smooth_method", "smooth"),
    "smooth_value": ("smooth_value", "smooth_floor"),
    "lowercase": ("lowercase",),
    "tokenize": ("tokenize",),
    "use_effective_order": ("use_effective_order",),
}


def _sacrebleu_1x(module: ModuleType, config: Config, level: str, hyps: Any, refs: Any) -> Any:
    """sacrebleu 1.x: ``sentence_bleu(hyp, refs, ...)``/``corpus_bleu(hyps, streams, ...)``,
    each setting under the name that release gives it; a setting it lacks (a max order
    other than 4, a tokenizer on sentences) raises TypeError."""
    function = module.sentence_bleu if level == "sentence" else module.corpus_bleu
    accepted = inspect.signature(function).parameters
    values = {
        "smooth_method": config.smoothing,
        "smooth_value": config.smoothing_value,
        "lowercase": config.lowercase is not False,
        "tokenize": config.tokenize,
        "use_effective_order": config.effective_order,
    }
    kwargs = {}
    for setting, value in values.items():
        name = next((n for n in _SACREBLEU_1X[setting] if n in accepted), None)
        if name is not None:
            kwargs[name] = value
        elif value not in (None, False, "13a"):
            raise TypeError(f"this release's {function.__name__} has no {setting} argument")
    if config.max_order != 4:
        raise TypeError("this release has no max_ngram_order (its order is 4)")
    if level == "sentence":
        return function(hyps[0], [r for r in refs[0] if r is not None], **kwargs)
    return function(hyps, to_streams(refs), **kwargs)


@contextmanager
def spm_models_at(model: str | None) -> Iterator[None]:
    """While active, sacrebleu's SentencePiece tokenizers (spm, flores101, flores200) load
    ``model`` instead of downloading their own (nothing changes for None): its models
    directory is a temporary one holding ``model`` under every file name of ``SPM_MODELS``."""
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


def _spm_model_missing(semantics: Mapping[str, Any]) -> str | None:
    model = semantics.get("spm_model")
    if model is None or os.path.isfile(os.path.expanduser(model)):
        return None
    return f"spm_model {model!r}: no such file (sacrebleu would download its own)"


def _torchmetrics(text: ModuleType, config: Config, level: str, hyps: Any, refs: Any) -> float:
    """``bleu_score(n_gram, smooth, weights)``: ``smooth=True`` is add-1 on orders >= 2.
    Releases before 0.7 name the inputs ``translate_corpus``/``reference_corpus`` and take
    token lists (and have no ``weights``)."""
    smooth = config.smoothing == "add-k"
    kwargs: dict[str, Any] = {"n_gram": config.max_order, "smooth": smooth}
    if config.weights:
        kwargs["weights"] = list(config.weights)
    accepted = inspect.signature(text.bleu_score).parameters
    if "preds" in accepted:
        return float(text.bleu_score(hyps, refs, **kwargs))
    tokens = [h.split() for h in hyps]
    references = [[r.split() for r in rs] for rs in refs]
    return float(text.bleu_score(translate_corpus=tokens, reference_corpus=references, **kwargs))


def _add_1_only(semantics: Mapping[str, Any]) -> str | None:
    if semantics.get("smoothing_value") in (None, 1, 1.0):
        return None
    return "torchmetrics smooth=True is add-1 only"


def _coco(bleu: ModuleType, config: Config, level: str, hyps: list[Any], refs: Any) -> float:
    """BLEU-N (``score[N-1]``) of ``Bleu(N).compute_score``, segment i as image id i."""
    res = {i: [h] for i, h in enumerate(hyps)}
    score, _ = bleu.Bleu(config.max_order).compute_score(dict(enumerate(refs)), res, verbose=0)
    return float(score[config.max_order - 1])


def _ignite(nlp: ModuleType, config: Config, level: str, hyps: Any, refs: Any) -> float:
    """One ``update((y_pred, y))`` then ``compute()`` of ``Bleu(ngram, smooth, average)``:
    ``smoothing`` none / floor / add-k (``denominator_floor`` corpus or none) -> no_smooth /
    smooth1 / nltk_smooth2 / smooth2; ``aggregation`` macro / corpus -> macro / micro."""
    smooth = {"none": "no_smooth", "floor": "smooth1"}.get(config.smoothing)
    if smooth is None:
        smooth = "nltk_smooth2" if config.denominator_floor == "corpus" else "smooth2"
    average = "macro" if config.aggregation == "macro" else "micro"
    metric = nlp.Bleu(ngram=config.max_order, smooth=smooth, average=average)
    metric.update((hyps, refs))
    return float(metric.compute())


def _torcheval(functional: ModuleType, config: Config, level: str, hyps: Any, refs: Any) -> float:
    """``bleu_score(n_gram, weights)``, the weights as a tensor."""
    import torch

    weights = None if config.weights is None else torch.tensor(config.weights)
    return float(functional.bleu_score(hyps, refs, n_gram=config.max_order, weights=weights))


def _fast_bleu(fast: ModuleType, config: Config, level: str, hyps: Any, refs: Any) -> Any:
    """The mean of ``BLEU(pool, weights, smoothing_func).get_score(hyps)``: every hypothesis
    is scored against the pool of all references (how a corpus score is read off its list).
    An empty pool is never sent: its C++ reads past the end (a crash of the process)."""
    pool = [r for rs in refs for r in rs]
    if not pool:
        why = "fast-bleu would read past its empty reference set (undefined behaviour)"
        return Answer(
            failure=Failure(
                "missing-reference", f"no reference at all: {why}, so it was not called"
            )
        )
    smoothing = 1 if config.smoothing == "nltk-method1" else 0
    weights = {"bleu": tuple(config.order_weights)}
    scores = fast.BLEU(pool, weights, smoothing_func=smoothing).get_score(hyps)["bleu"]
    return sum(scores) / len(scores)


#: Every live library, in the order ``--impl`` lists them.
LIBRARIES: Mapping[str, Library] = {
    lib.name: lib
    for lib in (
        Library(
            "nltk",
            "nltk.translate.bleu_score",
            _nltk,
            # imported while nltk itself imports (nltk/parse/corenlp.py), declared by neither
            undeclared={"3.2.3": ("requests",), "3.6": ("pytest",)},
        ),
        Library(
            "sacrebleu",
            "sacrebleu",
            _sacrebleu,
            strings=True,
            missing=True,
            scale=100,
            signature="c:mixed|e:no|tok:13a|s:exp|v:{version}",
            tokenized_knobs={"tokenize": "none"},
            refuse=_spm_model_missing,
        ),
        Library(
            "torchmetrics",
            "torchmetrics.functional",
            _torchmetrics,
            strings=True,
            timeout=60.0,
            refuse=_add_1_only,
        ),
        Library(
            "coco",
            "pycocoevalcap.bleu.bleu",
            _coco,
            distribution="pycocoevalcap",
            extra="coco",
            strings=True,
            warm_up=True,
        ),
        Library(
            "ignite",
            "ignite.metrics.nlp",
            _ignite,
            distribution="pytorch-ignite",
            extra="ignite",
            timeout=60.0,
            warm_up=True,
            error=("NotComputableError", "", "empty-corpus"),  # a macro average of nothing
        ),
        Library(
            "torcheval",
            "torcheval.metrics.functional",
            _torcheval,
            extra="torcheval",
            strings=True,
            timeout=60.0,
            warm_up=True,
            error=("ValueError", "too short", "absent-order"),  # an order without n-grams
        ),
        Library("fast-bleu", "fast_bleu", _fast_bleu, extra="fastbleu", warm_up=True),
    )
}
