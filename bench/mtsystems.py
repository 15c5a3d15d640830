"""Seeded multilingual "shared task" corpora: references and several MT systems per language.

For a language (script, spacing, casing, punctuation and quote conventions of real text:
German „…“, French « … » with no-break spaces before ; : ! ?, Chinese and Japanese without
spaces between words, Arabic ، ؟, Hindi ।, Turkish dotted/dotless i, Greek final sigma...)
a Zipfian vocabulary is drawn, reference 1 is generated as detokenized text, further
references are paraphrases of it, and each system is reference 1 after edits at its own
rate (its quality) written in its own *style*, as real submissions differ:

* ``clean``: detokenized like the references;
* ``tokenized``: Moses-style output, punctuation split off by spaces (and, for languages
  written without spaces, words separated by spaces);
* ``lowercased``: everything lowercased;
* ``short``: more deletions (a brevity-penalty system);
* ``ascii``: ASCII quotes and plain spaces instead of the language's typography.

Everything is deterministic in the seed. ``python -m bench.mtsystems --help`` writes files.
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass
from pathlib import Path

__all__ = ["LANGUAGES", "STYLES", "Language", "SystemSpec", "default_systems", "generate"]


@dataclass(frozen=True)
class Language:
    """How a language is written: letters, word lengths, spacing, punctuation."""

    code: str
    letters: str
    word_len: tuple[int, int] = (2, 9)
    spaced: bool = True
    cased: bool = True
    period: str = "."
    comma: str = ","
    question: str = "?"
    quotes: tuple[str, str] = ('"', '"')
    before_punct: str = ""  # French: a narrow no-break space before ; : ! ?
    inside_quotes: str = ""  # French: a no-break space inside « »
    elisions: tuple[str, ...] = ()


LANGUAGES = {
    lang.code: lang
    for lang in (
        Language("en", "etaoinshrdlcumwfgypbvkjxqz", elisions=("n't", "'s")),
        Language("de", "enisratdhulcgmobwfkzvpüäößjyxq", (2, 12), quotes=("„", "“")),
        Language(
            "fr",
            "esaitnrulodcmpévqfbghjàxèyêzçô",
            quotes=("«", "»"),
            before_punct="\u202f",
            inside_quotes="\u00a0",
            elisions=("l'", "d'", "qu'"),
        ),
        Language("cs", "oeantvsilkrdpímuázjyěcbéhřšžůčťňx", quotes=("„", "“")),
        Language("ru", "оеаинтсрвлкмдпуяыьгзбчйхжшюцщэфъё", quotes=("«", "»")),
        Language("fi", "aitneslokuämvrjhpyödg", (3, 14)),
        Language("tr", "aeinrlıkdmyuştsbozügçhğvcöpfjİI", quotes=("“", "”")),
        Language("el", "αοετινσρκπμυληωδγχθφβξζψς", quotes=("«", "»"), question=";"),
        Language(
            "zh",
            "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持取设始版双历越史商千片容研像找友孩站广改议形委早房音火际则首单据导影失拿网香似斯专石若兵弟谁校读志飞观争究包组造落视济喜离虽坏兴",
            (1, 2),
            spaced=False,
            cased=False,
            period="。",
            comma="，",
            question="？",
            quotes=("“", "”"),
        ),
        Language(
            "ja",
            "のにはをたがでしてとなかるいれもられうすこあっだおよりまさんくどきその日本人年一大出中国会事時上見行生分者地自",
            (1, 3),
            spaced=False,
            cased=False,
            period="。",
            comma="、",
            question="？",
            quotes=("「", "」"),
        ),
        Language(
            "ar",
            "اليمونربتهعدسفكقحجشطصزخضثذغظءةى",
            cased=False,
            comma="،",
            question="؟",
            quotes=("«", "»"),
        ),
        Language(
            "hi",
            "कसरनमतलपदयहवबगजखचटडथधभशषणफठढघछझञ",
            cased=False,
            period="।",
            quotes=("“", "”"),
        ),
        Language(
            "th",
            "กขคงจฉชซญดตถทธนบปผพฟภมยรลวศสหอฮะาิีึืุูเแโใไ่้๊๋",
            (2, 6),
            spaced=False,
            cased=False,
            period="",
            comma="",
            quotes=("“", "”"),
        ),
    )
}

STYLES = ("clean", "tokenized", "lowercased", "short", "ascii")


@dataclass(frozen=True)
class SystemSpec:
    """One system: its name, edit rate (lower is better) and output style."""

    name: str
    noise: float
    style: str = "clean"


def default_systems(count: int) -> list[SystemSpec]:
    """``count`` systems of close but differing quality; the styles are spread over them so
    that implementations that read text differently rank them differently."""
    styles = ["clean", "tokenized", "clean", "lowercased", "short", "clean", "ascii"]
    return [
        SystemSpec(f"sys{i + 1:02d}", 0.30 + 0.012 * i, styles[i % len(styles)])
        for i in range(count)
    ]


class _Vocabulary:
    def __init__(self, lang: Language, rng: random.Random, size: int = 6000) -> None:
        self.lang = lang
        words: list[str] = []
        seen: set[str] = set()
        weights = [1 / (i + 1) ** 0.6 for i in range(len(lang.letters))]
        while len(words) < size:
            n = rng.randint(*lang.word_len)
            word = "".join(rng.choices(lang.letters, weights=weights, k=n))
            if word not in seen:
                seen.add(word)
                words.append(word)
        self.words = words
        self.cum = _cumulative([1 / (i + 1) ** 1.05 for i in range(size)])

    def draw(self, rng: random.Random) -> str:
        return rng.choices(self.words, cum_weights=self.cum)[0]


def _cumulative(weights: list[float]) -> list[float]:
    out, total = [], 0.0
    for w in weights:
        total += w
        out.append(total)
    return out


def _sentence(vocab: _Vocabulary, rng: random.Random) -> list[str]:
    """Tokens of one sentence: words, numbers, commas, a quote, a final mark."""
    lang = vocab.lang
    n = max(3, min(60, int(rng.lognormvariate(2.9, 0.5))))
    tokens: list[str] = []
    for i in range(n):
        r = rng.random()
        if r < 0.03:
            tokens.append(f"{rng.randint(2, 999)}{rng.choice(['', ',5', '.5', '%'])}")
        elif r < 0.06 and lang.elisions:
            tokens.append(rng.choice(lang.elisions))
        elif r < 0.09 and lang.cased:
            tokens.append(vocab.draw(rng).capitalize())
        else:
            tokens.append(vocab.draw(rng))
        if lang.comma and i < n - 2 and rng.random() < 0.08:
            tokens.append(lang.comma)
    if rng.random() < 0.15 and n > 4:
        start = rng.randrange(0, n - 3)
        tokens.insert(start, "<q>")
        tokens.insert(min(len(tokens), start + 4), "</q>")
    final = lang.question if rng.random() < 0.1 else lang.period
    if final:
        tokens.append(final)
    if lang.cased and tokens[0][:1].isalpha():
        tokens[0] = tokens[0][:1].upper() + tokens[0][1:]
    return tokens


def _edit(tokens: list[str], vocab: _Vocabulary, rng: random.Random, rate: float) -> list[str]:
    """Substitutions, deletions, insertions and local swaps, at ``rate`` in total."""
    out: list[str] = []
    for tok in tokens:
        r = rng.random()
        if r < rate * 0.2:
            continue
        out.append(vocab.draw(rng) if r < rate * 0.75 else tok)
        if rng.random() < rate * 0.15:
            out.append(vocab.draw(rng))
    for i in range(len(out) - 1):
        if rng.random() < rate * 0.2:
            out[i], out[i + 1] = out[i + 1], out[i]
    return out or tokens[:1]


def _is_punct(tok: str, lang: Language) -> bool:
    return tok in (lang.period, lang.comma, lang.question, ".", ",", "?", "!", ";", ":")


def detokenize(tokens: list[str], lang: Language, style: str = "clean") -> str:
    """The tokens as text written in ``lang`` (``style`` tokenized: every token spaced)."""
    if style == "tokenized":
        text = " ".join(_quote(t, lang, ascii_=False) for t in tokens)
        return " ".join(text.split())
    ascii_ = style == "ascii"
    parts: list[str] = []
    glue = True
    for tok in tokens:
        shown = _quote(tok, lang, ascii_)
        attach = _is_punct(tok, lang) or tok == "</q>" or tok in ("n't", "'s")
        if parts and not glue and not attach and lang.spaced:
            parts.append(" ")
        if attach and lang.before_punct and tok in (lang.question, ";", ":", "!") and not ascii_:
            parts.append(lang.before_punct)
        if tok == "</q>" and lang.inside_quotes and not ascii_:
            parts.append(lang.inside_quotes)
        parts.append(shown)
        glue = tok == "<q>" or (tok.endswith("'") and tok in lang.elisions)
        if tok == "<q>" and lang.inside_quotes and not ascii_:
            parts.append(lang.inside_quotes)
    return "".join(parts).strip()


def _quote(tok: str, lang: Language, ascii_: bool) -> str:
    if tok == "<q>":
        return '"' if ascii_ else lang.quotes[0]
    if tok == "</q>":
        return '"' if ascii_ else lang.quotes[1]
    return tok


def _system_tokens(
    ref: list[str], vocab: _Vocabulary, rng: random.Random, spec: SystemSpec
) -> list[str]:
    rate = spec.noise + (0.12 if spec.style == "short" else 0.0)
    tokens = _edit(ref, vocab, rng, rate)
    if spec.style == "short":
        tokens = [t for t in tokens if rng.random() > 0.08] or tokens[:1]
    return tokens


def generate(
    lang_code: str,
    segments: int,
    systems: list[SystemSpec],
    refs: int = 2,
    seed: int = 0,
) -> tuple[list[list[str]], dict[str, list[str]]]:
    """(reference streams, system name -> lines) for ``lang_code``."""
    lang = LANGUAGES[lang_code]
    vocab = _Vocabulary(lang, random.Random(f"vocab-{lang_code}-{seed}"))
    rng = random.Random(f"text-{lang_code}-{seed}")
    streams: list[list[str]] = [[] for _ in range(refs)]
    outputs: dict[str, list[str]] = {s.name: [] for s in systems}
    for _ in range(segments):
        ref = _sentence(vocab, rng)
        streams[0].append(detokenize(ref, lang))
        for stream in streams[1:]:
            stream.append(detokenize(_edit(ref, vocab, rng, 0.25), lang))
        for spec in systems:
            line = detokenize(_system_tokens(ref, vocab, rng, spec), lang, spec.style)
            outputs[spec.name].append(line.lower() if spec.style == "lowercased" else line)
    return streams, outputs


def write(
    directory: Path, lang_code: str, streams: list[list[str]], outputs: dict[str, list[str]]
) -> list[Path]:
    """``ref.LANG.K.txt`` and ``LANG.SYSTEM.txt`` under ``directory``; the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for k, stream in enumerate(streams):
        paths.append(directory / f"ref.{lang_code}.{k}.txt")
        paths[-1].write_text("\n".join(stream) + "\n", encoding="utf-8")
    for name, lines in outputs.items():
        paths.append(directory / f"{lang_code}.{name}.txt")
        paths[-1].write_text("\n".join(lines) + "\n", encoding="utf-8")
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.mtsystems",
        description="Write seeded multilingual MT-system corpora (references + systems).",
    )
    parser.add_argument("--out", type=Path, required=True, help="output directory")
    parser.add_argument("--langs", default="de", help=f"comma-separated: {','.join(LANGUAGES)}")
    parser.add_argument("--segments", type=int, default=2000)
    parser.add_argument("--systems", type=int, default=9)
    parser.add_argument("--refs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for code in args.langs.split(","):
        streams, outputs = generate(
            code, args.segments, default_systems(args.systems), args.refs, args.seed
        )
        for path in write(args.out, code, streams, outputs):
            print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
