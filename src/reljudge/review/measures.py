"""Measures of reviewed answers: citation support and interpretive validity.

Sources: the TREC 2024 RAG Track support assessment (Thakur et al., "Support
Evaluation for the TREC 2024 RAG Track: Comparing Human versus LLM Judges", SIGIR
2025: each answer sentence × each paragraph it cites judged full / partial / no
support; weighted citation precision and recall) and ALCE (Gao et al., "Enabling Large
Language Models to Generate Text with Citations", EMNLP 2023: citation recall and
precision per statement).

Notation, for one answer: P = its (sentence, cited paragraph) pairs, each with the
aggregated support grade g ∈ {0, 1, 2} and weight s(g) = 1 (full), 0.5 (partial),
0 (none); N = its sentences that need a citation (every sentence unless the reviewers
said it needs none); C(i) the pairs of sentence i.

* support_precision = (1/|P|) Σ_{p∈P} s(g_p)                  (undefined when P = ∅)
* support_recall    = (1/|N|) Σ_{i∈N} max_{p∈C(i)} s(g_p),  0 for a sentence citing
  nothing                                                      (undefined when N = ∅)
* full_support_share = (1/|N|) Σ_{i∈N} [max_{p∈C(i)} g_p = 2]  (undefined when N = ∅)
* interpretation_valid_share = [interpretation = 2];  interpretation_mean = the grade
* citation_relevance = (1/|D|) Σ_{d∈D} [qrels grade of d ≥ threshold], D the distinct
  cited paragraphs (duplicate groups) of the answer; unjudged counts as not relevant,
  as in the retrieval metrics. It needs no review: it reads the paragraph judgments.

Each figure is computed per answer and then averaged over answers (every answer weighs
the same; full_support_share too, so that every figure is a mean over the same unit and
the bootstrap resamples answers). An answer enters a support figure only when every one
of its pairs has an aggregated grade, and the interpretation figures when its
interpretation has one; the number of answers each mean rests on is reported.

Which answers count: the current version of every system; only answerable questions
(the campaign's aggregated no-answer verdicts, as for the retrieval metrics); answers
whose system abstained are left out of every mean and counted apart (with the share the
reviewers found appropriate).

Intervals: the percentile bootstrap of :func:`reljudge.eval.metrics.bootstrap_ci` over the
answers of each system × question type (B = ``n_boot``, fixed seed).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from reljudge.campaign import adjudication
from reljudge.eval.metrics import ALL, NO_TYPE, bootstrap_ci
from reljudge.review.decisions import aggregated_reviews
from reljudge.storage import answers as store
from reljudge.storage import catalog
from reljudge.storage.db import Database

SUPPORT_WEIGHT = {2: 1.0, 1: 0.5, 0: 0.0}
"""The weight of a support grade (TREC 2024 RAG weighted precision: full 1, partial 0.5, none 0)."""

MEASURES = (
    "support_precision",
    "support_recall",
    "full_support_share",
    "interpretation_valid_share",
    "interpretation_mean",
    "citation_relevance",
)


@dataclass
class AnswerEvaluation:
    """per_answer: system, qid, qtype, answer_id, measure, value (defined values only)
    means:      system, qtype, measure, n, mean, ci_low, ci_high
    counts:     system, qtype, n_answers, n_sentences, n_pairs, n_abstained,
                n_abstained_answerable, n_abstained_no_answer, n_abstention_reviewed,
                n_abstention_appropriate, n_unreviewed
    failures:   system, qid, qtype, answer_id, sentence, text, citations ([(pid, grade)])
                — sentences that need a citation and have no supporting one"""

    per_answer: pd.DataFrame
    means: pd.DataFrame
    counts: pd.DataFrame
    failures: pd.DataFrame
    policy: str
    threshold: int
    n_boot: int
    seed: int


def per_answer_values(
    answers: pd.DataFrame,
    sentences: pd.DataFrame,
    citations: pd.DataFrame,
    decisions: pd.DataFrame,
    qrels: pd.DataFrame,
    threshold: int,
) -> pd.DataFrame:
    """The measures of each answer (long: answer_id, measure, value), vectorised.

    ``decisions``: aggregated decisions (answer_id, kind, sentence, pid, value);
    ``qrels``: qid, pid (duplicate group), grade; ``citations`` carry canonical_pid."""
    sup = decisions[decisions.kind == "support"][["answer_id", "sentence", "pid", "value"]]
    pairs = citations.merge(
        sup.rename(columns={"sentence": "idx", "value": "g"}), on=["answer_id", "idx", "pid"], how="left"
    )
    pairs["s"] = pairs.g.map(lambda g: SUPPORT_WEIGHT.get(int(g)) if pd.notna(g) else np.nan)
    complete = pairs.groupby("answer_id").g.apply(lambda g: bool(g.notna().all()))
    complete = complete.reindex(answers.answer_id, fill_value=True)  # no pairs: nothing to review
    ok = set(complete[complete].index)

    rows = []
    prec = pairs[pairs.answer_id.isin(ok)].groupby("answer_id").s.mean()
    rows.append(prec.rename("value").reset_index().assign(measure="support_precision"))

    exempt = decisions[(decisions.kind == "needs_citation") & (decisions.value == False)]  # noqa: E712
    sent = sentences[["answer_id", "idx"]].merge(
        exempt[["answer_id", "sentence"]].rename(columns={"sentence": "idx"}).assign(exempt=True),
        on=["answer_id", "idx"],
        how="left",
    )
    sent = sent[sent.exempt.isna() & sent.answer_id.isin(ok)]
    best = pairs.groupby(["answer_id", "idx"]).agg(smax=("s", "max"), gmax=("g", "max")).reset_index()
    sent = sent.merge(best, on=["answer_id", "idx"], how="left").fillna({"smax": 0.0, "gmax": 0})
    rows.append(sent.groupby("answer_id").smax.mean().rename("value").reset_index().assign(measure="support_recall"))
    rows.append(
        (sent.gmax == 2)
        .groupby(sent.answer_id)
        .mean()
        .rename("value")
        .reset_index()
        .assign(measure="full_support_share")
    )

    interp = decisions[decisions.kind == "interpretation"][["answer_id", "value"]].astype({"value": float})
    rows.append(interp.assign(value=(interp.value == 2).astype(float), measure="interpretation_valid_share"))
    rows.append(interp.assign(measure="interpretation_mean"))

    cited = citations.merge(answers[["answer_id", "qid"]], on="answer_id")[["answer_id", "qid", "canonical_pid"]]
    cited = cited.drop_duplicates().merge(
        qrels[["qid", "pid", "grade"]].rename(columns={"pid": "canonical_pid"}), on=["qid", "canonical_pid"], how="left"
    )
    cited["rel"] = (cited.grade.fillna(-1) >= threshold).astype(float)
    rows.append(
        cited.groupby("answer_id").rel.mean().rename("value").reset_index().assign(measure="citation_relevance")
    )
    out = pd.concat([r[["answer_id", "measure", "value"]] for r in rows], ignore_index=True)
    out["value"] = out.value.astype(float)
    return out, ok


def evaluate_answers(
    db: Database,
    policy: str = "adjudicated",
    qrels_policy: str = "adjudicated",
    threshold: int | None = None,
    n_boot: int = 1000,
    seed: int = 42,
) -> AnswerEvaluation:
    """Every measure per system × question type and overall (``qtype`` ``all``), with 95%
    bootstrap intervals. ``policy`` turns several reviewers' decisions into one
    (:func:`reljudge.review.decisions.aggregated_reviews`); ``qrels_policy`` is the paragraph
    judgments' (citation_relevance, and which questions are no-answer)."""
    threshold = int(threshold if threshold is not None else catalog.get_settings(db)["rel_threshold"])
    answers, sentences, citations = store.current_answer_tables(db)
    decisions = aggregated_reviews(db, policy)
    qrels = adjudication.qrels(db, qrels_policy)
    verdicts = adjudication.verdicts(db, qrels_policy, threshold)
    no_answer = set(verdicts[verdicts.no_answer.astype(bool)].qid)
    answers["qtype"] = answers.qtype.replace("", NO_TYPE).fillna(NO_TYPE)
    answers["answerable"] = ~answers.qid.isin(no_answer)
    scored = answers[answers.answerable & ~answers.abstained]
    values, complete = per_answer_values(
        scored,
        sentences[sentences.answer_id.isin(scored.answer_id)],
        citations[citations.answer_id.isin(scored.answer_id)],
        decisions,
        qrels,
        threshold,
    )
    per_answer = values.merge(scored[["answer_id", "system", "qid", "qtype"]], on="answer_id")
    per_answer = per_answer[["system", "qid", "qtype", "answer_id", "measure", "value"]]

    systems = sorted(answers.system.unique())
    groups = [ALL] + sorted(answers.qtype.unique())
    mean_rows, count_rows = [], []
    abst = decisions[decisions.kind == "abstention"][["answer_id", "value"]]
    for g in groups:
        for s in systems:
            in_g = (answers.system == s) & ((answers.qtype == g) if g != ALL else True)
            a_g = answers[in_g]
            sc = a_g[a_g.answerable & ~a_g.abstained]
            for m in MEASURES:
                v = per_answer[
                    (per_answer.system == s)
                    & (per_answer.measure == m)
                    & ((per_answer.qtype == g) if g != ALL else True)
                ].value.to_numpy()
                lo, hi = bootstrap_ci(v.reshape(-1, 1), n_boot, seed, f"{g}|{s}|{m}")
                mean_rows.append((s, g, m, len(v), float(v.mean()) if len(v) else np.nan, lo[0], hi[0]))
            ab = a_g[a_g.abstained]
            judged = abst[abst.answer_id.isin(ab.answer_id)]
            count_rows.append(
                (
                    s,
                    g,
                    len(sc),
                    int(sentences.answer_id.isin(sc.answer_id).sum()),
                    int(citations.answer_id.isin(sc.answer_id).sum()),
                    len(ab),
                    int(ab.answerable.sum()),
                    int((~ab.answerable).sum()),
                    len(judged),
                    int(judged.value.astype(bool).sum()),
                    int((~sc.answer_id.isin(complete)).sum()),
                )
            )
    means = pd.DataFrame(mean_rows, columns=["system", "qtype", "measure", "n", "mean", "ci_low", "ci_high"])
    counts = pd.DataFrame(
        count_rows,
        columns=[
            "system",
            "qtype",
            "n_answers",
            "n_sentences",
            "n_pairs",
            "n_abstained",
            "n_abstained_answerable",
            "n_abstained_no_answer",
            "n_abstention_reviewed",
            "n_abstention_appropriate",
            "n_unreviewed",
        ],
    )
    return AnswerEvaluation(
        per_answer,
        means,
        counts,
        _failures(scored, sentences, citations, decisions, complete),
        policy,
        threshold,
        n_boot,
        seed,
    )


def _failures(scored, sentences, citations, decisions, complete) -> pd.DataFrame:
    """Sentences that need a citation and have no support (every cited paragraph graded
    0, or nothing cited), with their citations and grades; reviewed answers only."""
    sup = decisions[decisions.kind == "support"].rename(columns={"sentence": "idx", "value": "g"})
    pairs = citations.merge(sup[["answer_id", "idx", "pid", "g"]], on=["answer_id", "idx", "pid"], how="left")
    exempt = decisions[(decisions.kind == "needs_citation") & (decisions.value == False)]  # noqa: E712
    s = sentences[sentences.answer_id.isin(scored.answer_id) & sentences.answer_id.isin(complete)]
    s = s[~s.set_index(["answer_id", "idx"]).index.isin(list(zip(exempt.answer_id, exempt.sentence)))]
    rows = []
    by = {k: list(zip(v.pid, v.g)) for k, v in pairs.groupby(["answer_id", "idx"])}
    info = scored.set_index("answer_id")
    for r in s.itertuples():
        cites = by.get((r.answer_id, r.idx), [])
        if all(int(g) == 0 for _, g in cites):
            a = info.loc[r.answer_id]
            rows.append(
                (a.system, a.qid, a.qtype, int(r.answer_id), int(r.idx), r.text, [(p, int(g)) for p, g in cites])
            )
    return pd.DataFrame(rows, columns=["system", "qid", "qtype", "answer_id", "sentence", "text", "citations"])
