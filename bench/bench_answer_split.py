"""Split long generated answers into sentences: Kiwi's splitter on the whole text against
reljudge.korean.split_sentences (Kiwi on pieces of at most SPLIT_PIECE characters, cut at
sentence ends), side by side in one process, and an import of one answer at the limit.

Why: an answer without ``sentences`` is split by Kiwi, whose time grows faster than the
text; a 1 MB answer ran for minutes before the import bounded answers (20,000 characters)
and split them in pieces. The two splitters give the same sentences on text of one piece.

Usage: python bench/bench_answer_split.py [N ...]  (characters; default 10000 40000 100000 160000)
Writes the section <!-- answer-split:begin/end --> of bench/RESULTS.md.
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

from benchlib import cpu_model, write_section  # noqa: E402

from reljudge import korean  # noqa: E402

BASE = "목회자는 믿음을 설명했다 [1]. 그 해 겨울 교회는 피난민을 도왔다. 강의는 율법과 은혜를 다룬다. "


def _time(fn, text: str) -> tuple[float, int]:
    start = time.perf_counter()
    n = len(fn(text))
    return time.perf_counter() - start, n


def whole(text: str) -> list[str]:
    return [s.text.strip() for s in korean._with_kiwi(lambda kiwi: kiwi.split_into_sents(text)) if s.text.strip()]


def main(sizes: list[int]) -> None:
    korean.split_sentences("준비.")  # load Kiwi's model once, outside the timings
    rows = []
    for n in sizes:
        text = (BASE * (n // len(BASE) + 1))[:n]
        t_whole, s_whole = _time(whole, text)
        t_piece, s_piece = _time(korean.split_sentences, text)
        rows.append(
            f"| {n:,} | {t_whole:.2f} s ({s_whole:,}) | {t_piece:.2f} s ({s_piece:,}) | {t_whole / t_piece:.1f}× |"
        )
    nospace = "가" * 20_000
    t_nospace, _ = _time(korean.split_sentences, nospace)
    load = os.getloadavg()[0]
    body = "\n".join(
        [
            "## Answer import: sentence splitting of long answers",
            "",
            f"Run {dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC on {os.cpu_count()} cores ({cpu_model()}), "
            f"Python {platform.python_version()}, load average {load:.1f} at the end. Produced by "
            "`python bench/bench_answer_split.py`: Korean prose of three sentences repeated to N characters.",
            "",
            "| characters | Kiwi on the whole text (sentences) | reljudge, pieces of 2,000 (sentences) | faster by |",
            "|---:|---:|---:|---:|",
            *rows,
            "",
            f"The worst answer accepted, 20,000 characters with no space or sentence end (cut every 500): {t_nospace:.2f} s.",
            "Answers are bounded at 20,000 characters (`importers.MAX_ANSWER_CHARS`, about ten pages of Korean), so",
            "the split of one answer costs at most about the 10,000–40,000 rows and that worst case; before, a 1 MB",
            "answer ran for minutes. The sentence counts are equal on this prose. Timings depend on the load average,",
            "printed above.",
        ]
    )
    write_section("answer-split", body)
    print(body)


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [10_000, 40_000, 100_000, 160_000])
