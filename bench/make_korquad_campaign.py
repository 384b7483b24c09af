"""A retrieval campaign built from KorQuAD 1.0 dev, for bench/bench_judging_cost.py.

    python bench/make_korquad_campaign.py KorQuAD_v1.0_dev.json OUT_DIR [--questions 200] [--depth 100]

Reads a local copy of KorQuAD_v1.0_dev.json (KorQuAD 1.0, CC BY-ND 2.0 KR; this script
downloads nothing) and writes:

* OUT_DIR/corpus.jsonl: every context paragraph of the dev set (each KorQuAD
  ``context`` is one Wikipedia paragraph, no line breaks: 964 paragraphs in 140
  articles), pid ``kq{article:03d}-{paragraph:02d}``, doc_id the article title;
* OUT_DIR/questions.jsonl: ``--questions`` questions, the ones whose KorQuAD id has
  the smallest SHA-1 (a fixed, spread-out sample), qid = the KorQuAD id;
* OUT_DIR/runs/*.trec: four runs over the whole corpus, ``--depth`` deep, ranked by
  score descending then pid descending (trec_eval's tie rule), scores to 6 decimals:
  - ``bm25_morph``: Okapi BM25 (k1 0.9, b 0.4) over Kiwi morphemes (kiwipiepy) of the
    content classes (nouns, verb/adjective stems, roots, adverbs, foreign, numbers);
  - ``bm25_bigram``: the same BM25 over character bigrams of each eojeol;
  - ``tfidf_char``: scikit-learn TF-IDF of character 2-4-grams within word bounds
    (sublinear tf), cosine similarity;
  - ``rrf``: reciprocal rank fusion (k 60) of bm25_morph and tfidf_char;
* OUT_DIR/qrels.txt, the oracle: grade 2 for the paragraph holding the question's
  answer span (its own context; the span is checked at answer_start), and for any
  other paragraph with exactly the same text; no other line (so every other paragraph
  is 0, even one that happens to contain the answer string elsewhere);
* OUT_DIR/SOURCE.txt: what this is.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path

import numpy as np

CONTENT_TAGS = ("NN", "NR", "NP", "VV", "VA", "XR", "MAG", "SL", "SH", "SN")
_EOJEOL = re.compile(r"[0-9A-Za-z가-힣]+")


def load(path: Path, n_questions: int):
    data = json.loads(path.read_text(encoding="utf-8"))
    corpus, owner, qas = [], {}, []
    for a, article in enumerate(data["data"]):
        for p, para in enumerate(article["paragraphs"]):
            pid = f"kq{a:03d}-{p:02d}"
            corpus.append({"pid": pid, "doc_id": article["title"], "position": p + 1, "text": para["context"]})
            for qa in para["qas"]:
                answer = qa["answers"][0]
                start = answer["answer_start"]
                if para["context"][start : start + len(answer["text"])] != answer["text"]:
                    continue  # span does not match its offset: left out of the sample
                owner[qa["id"]] = pid
                qas.append({"qid": qa["id"], "text": qa["question"], "answer": answer["text"]})
    qas.sort(key=lambda q: hashlib.sha1(q["qid"].encode()).hexdigest())
    return corpus, qas[:n_questions], owner


def bm25_scores(doc_tokens: list[list[str]], query_tokens: list[list[str]], k1: float = 0.9, b: float = 0.4):
    """Okapi BM25 (Lucene's idf: log(1 + (N - df + 0.5) / (df + 0.5))); queries × docs."""
    from sklearn.feature_extraction.text import CountVectorizer

    vec = CountVectorizer(analyzer=lambda tokens: tokens)
    tf = vec.fit_transform(doc_tokens).tocsc().astype(np.float64)
    n = tf.shape[0]
    df = np.diff(tf.indptr)
    idf = np.log1p((n - df + 0.5) / (df + 0.5))
    lengths = np.asarray(tf.sum(axis=1)).ravel()
    norm = k1 * (1 - b + b * lengths / lengths.mean())
    tf = tf.tocoo()
    weights = tf.data * (k1 + 1) / (tf.data + norm[tf.row]) * idf[tf.col]
    from scipy.sparse import csr_matrix

    w = csr_matrix((weights, (tf.row, tf.col)), shape=tf.shape)
    q = vec.transform(query_tokens)
    q.data[:] = 1.0  # a query term counts once
    return np.asarray((q @ w.T).todense())


def morphemes(texts: list[str]) -> list[list[str]]:
    from kiwipiepy import Kiwi

    kiwi = Kiwi()
    return [[f"{t.form}/{t.tag}" for t in tokens if t.tag.startswith(CONTENT_TAGS)] for tokens in kiwi.tokenize(texts)]


def bigrams(text: str) -> list[str]:
    out = []
    for word in _EOJEOL.findall(text.lower()):
        out += [word] if len(word) < 2 else [word[i : i + 2] for i in range(len(word) - 1)]
    return out


def tfidf_scores(docs: list[str], queries: list[str]):
    from sklearn.feature_extraction.text import TfidfVectorizer

    vec = TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 4), sublinear_tf=True)
    d = vec.fit_transform(docs)
    return np.asarray((vec.transform(queries) @ d.T).todense())


def rank(scores: np.ndarray, pids: list[str], depth: int) -> list[tuple[str, float]]:
    rounded = [round(float(s), 6) for s in scores]
    order = sorted(range(len(pids)), key=lambda i: (rounded[i], pids[i]), reverse=True)[:depth]
    return [(pids[i], rounded[i]) for i in order]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("korquad", type=Path, help="a local KorQuAD_v1.0_dev.json")
    parser.add_argument("out", type=Path)
    parser.add_argument("--questions", type=int, default=200)
    parser.add_argument("--depth", type=int, default=100)
    args = parser.parse_args(argv)
    corpus, questions, owner = load(args.korquad, args.questions)
    pids = [p["pid"] for p in corpus]
    texts = [p["text"] for p in corpus]
    qtexts = [q["text"] for q in questions]

    morph = morphemes(texts + qtexts)
    scores = {
        "bm25_morph": bm25_scores(morph[: len(texts)], morph[len(texts) :]),
        "bm25_bigram": bm25_scores([bigrams(t) for t in texts], [bigrams(t) for t in qtexts]),
        "tfidf_char": tfidf_scores(texts, qtexts),
    }
    rankings = {name: [rank(row, pids, len(pids)) for row in s] for name, s in scores.items()}
    fused = []
    for qi in range(len(questions)):
        rrf: dict[str, float] = {}
        for name in ("bm25_morph", "tfidf_char"):
            for r, (pid, _) in enumerate(rankings[name][qi], start=1):
                rrf[pid] = rrf.get(pid, 0.0) + 1.0 / (60 + r)
        fused.append(rank(np.array([rrf[p] for p in pids]), pids, args.depth))
    rankings = {name: [r[: args.depth] for r in rs] for name, rs in rankings.items()}
    rankings["rrf"] = fused

    out: Path = args.out
    (out / "runs").mkdir(parents=True, exist_ok=True)
    for name, per_q in rankings.items():
        with open(out / "runs" / f"{name}.trec", "w", encoding="utf-8") as fh:
            for q, ranking in zip(questions, per_q):
                for r, (pid, score) in enumerate(ranking, start=1):
                    fh.write(f"{q['qid']} Q0 {pid} {r} {score:.6f} {name}\n")
    by_text: dict[str, list[str]] = {}
    for p in corpus:
        by_text.setdefault(p["text"], []).append(p["pid"])
    text_of = dict(zip(pids, texts))
    with open(out / "qrels.txt", "w", encoding="utf-8") as fh:
        for q in questions:
            for pid in sorted(by_text[text_of[owner[q["qid"]]]]):
                fh.write(f"{q['qid']} 0 {pid} 2\n")
    with open(out / "corpus.jsonl", "w", encoding="utf-8") as fh:
        for p in corpus:
            fh.write(json.dumps(p, ensure_ascii=False) + "\n")
    with open(out / "questions.jsonl", "w", encoding="utf-8") as fh:
        for q in questions:
            fh.write(json.dumps({"qid": q["qid"], "text": q["text"]}, ensure_ascii=False) + "\n")
    mrr = {
        name: sum(
            next((1 / r for r, (pid, _) in enumerate(rs[qi][:10], 1) if pid == owner[q["qid"]]), 0.0)
            for qi, q in enumerate(questions)
        )
        / len(questions)
        for name, rs in rankings.items()
    }
    (out / "SOURCE.txt").write_text(
        f"KorQuAD 1.0 dev ({args.korquad.name}): {len(corpus)} context paragraphs as the corpus, "
        f"{len(questions)} questions (smallest SHA-1 of the KorQuAD id); 4 runs built by "
        "bench/make_korquad_campaign.py (BM25 over Kiwi morphemes, BM25 over character bigrams, TF-IDF "
        "char 2-4-grams, RRF of the first and third); oracle: grade 2 for the question's own context "
        "paragraph (the one holding its answer span), 0 for every other.\n",
        encoding="utf-8",
    )
    print(
        f"wrote {out}: {len(corpus)} paragraphs, {len(questions)} questions; MRR@10 against the oracle: "
        + ", ".join(f"{k} {v:.3f}" for k, v in mrr.items())
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
