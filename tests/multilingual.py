"""Seeded random multilingual text for the tokenizer tests, and a SentencePiece model trained
on it.

Lines mix Chinese (simplified and traditional), Japanese (hiragana, katakana, kanji, half-
and full-width forms), Korean, Thai, Arabic, Latin with digits and punctuation, CJK
punctuation, emoji and unusual whitespace; some lines are empty or whitespace only.
"""

from __future__ import annotations

import random
from pathlib import Path

#: Word pools per script (tokens of real text, and edge characters for the tokenizers).
POOLS: dict[str, list[str]] = {
    "zh-hans": ["我们", "中国", "经济", "发展", "今天", "天气", "很", "好", "的", "是", "了"],
    "zh-hant": ["我們", "經濟", "發展", "臺灣", "學習", "電腦", "網絡", "這個", "說", "會"],
    "ja": ["東京", "タワー", "は", "高い", "です", "私", "の", "猫", "が", "好き", "ました",
           "カタカナ", "ひらがな", "ｶﾀｶﾅ", "ﾃｽﾄ", "日本語", "を", "食べ", "ｱｲｳ", "漢字"],
    "ko": ["서울", "에", "갑니다", "한국어", "는", "재미있다", "학교", "에서", "공부", "했습니다"],
    "th": ["ภาษาไทย", "สวัสดี", "ครับ", "ประเทศ", "ไทย"],
    "ar": ["مرحبا", "بالعالم", "اللغة", "العربية", "في", "٢٠٢٣"],
    "latin": ["the", "The", "cat", "NASA", "naïve", "Straße", "3.5", "1,000", "U.S.", "co-op",
              "e-mail", "2023", "it's", "&amp;", "<skipped>", "x86_64", "ｗｉｄｅ", "ＡＢＣ"],
    "digits": ["2023", "１２３", "４５", "3.14", "10-20", "５０％", "1,5"],
    "punct": ["。", "、", "，", "！", "？", "「", "」", "『", "』", "（", "）", "・", "…", "—",
              "“", "”", "《", "》", "：", "；", ".", ",", "!", "?", "-", "(", ")", '"', "'"],
    "emoji": ["😀", "👍🏽", "🇯🇵", "❤️", "☃", "✨", "👨‍👩‍👧"],
    "rare": ["\u3000", "\u00a0", "\u2009", "\u200b", "\ufeff", "𠀀", "𪚥", "⺀", "㐀", "豈"],
}  # fmt: skip
SCRIPTS = list(POOLS)
GLUE = ["", "", "", "", " ", " ", "  ", "\t", "\u3000"]


def random_line(rng: random.Random, main: str | None = None) -> str:
    """A line of 0..20 words, mostly from ``main`` (a key of POOLS; random if None)."""
    kind = rng.random()
    if kind < 0.04:
        return ""
    if kind < 0.07:
        return rng.choice([" ", "\t", "  \u3000 ", "\u00a0"])
    main = main or rng.choice(SCRIPTS)
    words = []
    for _ in range(rng.choice([1, 2, 3, 5, 8, 12, 20])):
        pool = main if rng.random() < 0.7 else rng.choice(SCRIPTS)
        words.append(rng.choice(POOLS[pool]))
        words.append(rng.choice(GLUE))
    line = "".join(words)
    if rng.random() < 0.2:
        line = rng.choice([" ", "\t", "\u3000"]) + line
    return line


def paraphrase(rng: random.Random, line: str) -> str:
    """``line`` with some characters dropped, duplicated or replaced (a noisy hypothesis)."""
    out = []
    for char in line:
        r = rng.random()
        if r < 0.08:
            continue
        out.append(char)
        if r > 0.95:
            out.append(rng.choice(POOLS[rng.choice(SCRIPTS)]))
    return "".join(out)


def random_corpus(
    seed: int, segments: int, refs: int, main: str | None = None
) -> tuple[list[str], list[list[str]]]:
    """(hypotheses, per-segment references): references are fresh lines or paraphrases of
    one another, hypotheses paraphrases of the first reference or fresh lines."""
    rng = random.Random(seed)
    hyps, refss = [], []
    for _ in range(segments):
        first = random_line(rng, main)
        ref_list = [first] + [
            paraphrase(rng, first) if rng.random() < 0.6 else random_line(rng, main)
            for _ in range(refs - 1)
        ]
        hyp = paraphrase(rng, first) if rng.random() < 0.8 else random_line(rng, main)
        hyps.append(hyp)
        refss.append(ref_list)
    return hyps, refss


def train_spm_model(directory: Path, vocab_size: int = 300) -> Path:
    """A small unigram SentencePiece model trained on seeded random text (every character of
    the pools covered), written to ``directory/tiny.model``."""
    import sentencepiece as spm

    rng = random.Random(20240601)
    lines = [line for line in (random_line(rng) for _ in range(3000)) if line.strip()]
    text = directory / "train.txt"
    text.write_text("\n".join(lines) + "\n", encoding="utf-8")
    prefix = directory / "tiny"
    spm.SentencePieceTrainer.train(
        input=str(text),
        model_prefix=str(prefix),
        vocab_size=vocab_size,
        model_type="unigram",
        character_coverage=1.0,
        num_threads=1,
        minloglevel=2,
    )
    return prefix.with_suffix(".model")
