"""`reljudge evaluate` in file mode, and the TREC readers behind it."""

from __future__ import annotations

import argparse
import json
import random

import duckdb
import numpy as np
import pytest
import pytrec_eval
from pandas.testing import assert_frame_equal

from reljudge.errors import InputError
from reljudge.cli.evaluate_command import register
from reljudge.eval.trec_io import read_qrels, read_run, run_name


def cli(argv, capsys):
    """Parse with a parser holding only our subcommand, as the lead's cli.py will."""
    parser = argparse.ArgumentParser(prog="reljudge")
    parser.add_argument("--db")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    code = args.func(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def files(tmp_path):
    rng = np.random.default_rng(11)
    qrels, runs = [], {"bm25": [], "dense": []}
    qd, rds = {}, {"bm25": {}, "dense": {}}
    for q in range(300):
        qid = f"q{q}"
        for d in rng.choice(30, size=8, replace=False):
            g = int(rng.integers(0, 3))
            qrels.append(f"{qid} 0 d{d} {g}")
            qd.setdefault(qid, {})[f"d{d}"] = g
        for name in runs:
            if rng.random() < 0.05:
                continue  # a qrels question missing from this run
            docs = rng.choice(30, size=20, replace=False)
            scores = np.round(rng.random(20), 1)  # many exact ties
            order = np.argsort(-scores, kind="stable")
            for rank, i in enumerate(order, start=1):
                runs[name].append(f"{qid} Q0 d{docs[i]} {rank} {scores[i]} {name}")
                rds[name].setdefault(qid, {})[f"d{docs[i]}"] = float(scores[i])
    runs["bm25"].append("q999 Q0 d1 1 1.0 bm25")  # a run question absent from the qrels
    (tmp_path / "qrels.txt").write_text("\n".join(qrels) + "\n")
    for name, lines in runs.items():
        (tmp_path / f"{name}.run").write_text("\n".join(lines) + "\n")
    return tmp_path, qd, rds


def _tsv(out):
    return {(r, m, q): float(v) for r, m, q, v in (line.split("\t") for line in _data(out))}


def _data(out):
    """The tsv lines without the '# ties: ...' header line."""
    lines = out.strip().splitlines()
    assert lines[0].startswith("# ties: ")
    return lines[1:]


def test_tsv_means_and_per_query_match_trec_eval(files, capsys):
    d, qd, rds = files
    code, out, err = cli(
        [
            "evaluate",
            "--qrels",
            str(d / "qrels.txt"),
            str(d / "bm25.run"),
            str(d / "dense.run"),
            "-m",
            "nDCG@10",
            "P@5",
            "R@20",
            "--per-query",
        ],
        capsys,
    )
    assert code == 0 and err == ""
    got = _tsv(out)
    for name in ("bm25", "dense"):
        ref = pytrec_eval.RelevanceEvaluator(qd, {"ndcg_cut.10", "P.5", "recall.20"}, relevance_level=1).evaluate(
            rds[name]
        )
        for ours, theirs in [("nDCG@10", "ndcg_cut_10"), ("P(rel=1)@5", "P_5"), ("R(rel=1)@20", "recall_20")]:
            per_q = {q: ref[q][theirs] if q in ref else 0.0 for q in qd}
            for q, v in per_q.items():
                assert got[(name, ours, q)] == pytest.approx(v, abs=5e-5)  # 4 decimals printed
            assert got[(name, ours, "all")] == pytest.approx(np.mean(list(per_q.values())), abs=5e-5)
    assert not any(q == "q999" for _, _, q in got)
    # mean last for each run and measure, as trec_eval -q
    assert out.strip().splitlines()[-1].split("\t")[:3] == ["dense", "R(rel=1)@20", "all"]


def test_tsv_without_per_query_prints_means_only(files, capsys):
    d, _, _ = files
    code, out, _ = cli(
        ["evaluate", "--qrels", str(d / "qrels.txt"), str(d / "bm25.run"), "-m", "RR@10", "RR(rel=2)@10"], capsys
    )
    lines = [line.split("\t") for line in _data(out)]
    assert code == 0 and [line[:3] for line in lines] == [
        ["bm25", "RR(rel=1)@10", "all"],
        ["bm25", "RR(rel=2)@10", "all"],
    ]
    assert float(lines[0][3]) > float(lines[1][3]) > 0


def test_json_carries_intervals_shares_tests_and_policies(files, capsys):
    d, _, _ = files
    code, out, _ = cli(
        [
            "evaluate",
            "--qrels",
            str(d / "qrels.txt"),
            str(d / "bm25.run"),
            str(d / "dense.run"),
            "-m",
            "RR@10",
            "--format",
            "json",
            "--ties",
            "ranked",
            "--dedup",
            "keep",
        ],
        capsys,
    )
    doc = json.loads(out)
    assert code == 0 and doc["systems"] == ["bm25", "dense"]
    assert (
        doc["policies"]["ties"] == "ranked"
        and doc["policies"]["dedup"] == "keep"
        and doc["policies"]["default_rel"] == 1
    )
    mean = [m for m in doc["means"] if m["system"] == "bm25" and m["qtype"] == "all"][0]
    assert mean["ci_low"] < mean["mean"] < mean["ci_high"] and mean["n"] == 300
    assert {"rank1", "top3", "not_found"} <= set(doc["shares"][0])
    assert doc["tests"][0]["system_a"] == "bm25" and 0 < doc["tests"][0]["p_holm"] <= 1
    assert doc["runs"][1] == {"name": "dense", "file": str(d / "dense.run")}
    assert "per_query" not in doc


def test_table_is_readable(files, capsys):
    d, _, _ = files
    code, out, _ = cli(
        [
            "evaluate",
            "--qrels",
            str(d / "qrels.txt"),
            str(d / "bm25.run"),
            str(d / "dense.run"),
            "-m",
            "RR@10",
            "nDCG@10",
            "--format",
            "table",
        ],
        capsys,
    )
    assert code == 0
    for text in ["bm25", "dense", "RR(rel=1)@10", "nDCG@10", "rank 1", "not found", "Holm", "ties:", "300 evaluated"]:
        assert text in out


def _write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


@pytest.mark.parametrize(
    "run_text, fragment",
    [
        ("q1 Q0 a 1 2.5 t\nq1 Q0 b 2 2.0\n", "line 2: expected 6 fields"),
        ("q1 Q0 a 1 2.5 t\nq1 Q0 b 2 high t\n", "line 2: score 'high' is not a number"),
        ("q1 Q0 a 1 2.5 t\nq2 Q0 a 1 2.5 t\nq1 Q0 a 2 2.0 t\n", "line 3: document 'a' appears twice for query 'q1'"),
        ("q1 Q0 a 1 nan t\n", "line 1: score is NaN"),
        # Python's float() reads non-ASCII digits, DuckDB does not: the slow pass must refuse them
        ("q1 Q0 a 1 2.5 t\nq1 Q0 b 2 \u0661 t\n", "line 2: score '\u0661' is not a number"),
        ("q1 Q0 a 1 2.5 t\n\xff\n", "not valid UTF-8"),
    ],
)
def test_malformed_run_names_file_and_line(tmp_path, capsys, run_text, fragment):
    qrels = _write(tmp_path, "qrels.txt", "q1 0 a 1\n")
    if "\xff" in run_text:
        run = tmp_path / "bad.run"
        run.write_bytes(run_text.replace("\xff", "").encode() + b"\xff\xfe\n")
        run = str(run)
    else:
        run = _write(tmp_path, "bad.run", run_text)
    code, out, err = cli(["evaluate", "--qrels", qrels, run, "-m", "RR@10"], capsys)
    assert code == 2 and out == ""
    assert err.startswith(f"error: {run}") and fragment in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "qrels_text, fragment",
    [
        ("q1 0 a 1\nq1 0 b\n", "line 2: expected 4 fields"),
        ("q1 0 a 1\nq1 0 b high\n", "line 2: relevance 'high' is not a whole number"),
        ("q1 0 a 1\nq1 0 a 2\n", "line 2: document 'a' appears twice"),
        ("", "no judgments"),
    ],
)
def test_malformed_qrels(tmp_path, capsys, qrels_text, fragment):
    qrels = _write(tmp_path, "qrels.txt", qrels_text)
    run = _write(tmp_path, "ok.run", "q1 Q0 a 1 2.5 t\n")
    code, _, err = cli(["evaluate", "--qrels", qrels, run, "-m", "RR@10"], capsys)
    assert code == 2 and fragment in err and qrels in err


@pytest.mark.parametrize(
    "argv_tail, fragment",
    [
        (["-m", "MAPX@10"], "unknown measure 'MAPX'"),  # lists what exists (RR@K ...)
        (["-m", "P@"], "cannot read measure"),
        (["-m", "nDCG"], "e.g. nDCG@10"),  # RR alone is trec_eval recip_rank (whole ranking)
    ],
)
def test_bad_measures(tmp_path, capsys, argv_tail, fragment):
    qrels = _write(tmp_path, "qrels.txt", "q1 0 a 1\n")
    run = _write(tmp_path, "ok.run", "q1 Q0 a 1 2.5 t\n")
    code, _, err = cli(["evaluate", "--qrels", qrels, run] + argv_tail, capsys)
    assert code == 2 and fragment in err and "@" in err and len(err.splitlines()) == 1


def test_missing_files_and_no_run(tmp_path, capsys):
    qrels = _write(tmp_path, "qrels.txt", "q1 0 a 1\n")
    code, _, err = cli(["evaluate", "--qrels", qrels, str(tmp_path / "nope.run"), "-m", "RR@10"], capsys)
    assert code == 2 and "nope.run: no such file" in err
    code, _, err = cli(["evaluate", "--qrels", qrels, "-m", "RR@10"], capsys)
    assert code == 2 and "no run given" in err


def test_run_names_and_irregular_whitespace(tmp_path, capsys):
    qrels = _write(tmp_path, "qrels.txt", "q1\t0\ta\t2\nq2 0 b 1\n")
    # several spaces, tabs, trailing blanks and a blank line: valid for trec_eval
    a = _write(tmp_path, "a.run", "q1  Q0 x 1 3.0 same \n\nq1\tQ0\ta\t2\t2.0\tsame\nq2 Q0 b 1 1 same\n")
    (tmp_path / "sub").mkdir()
    b = _write(tmp_path / "sub", "b.run", "q1 Q0 a 1 1 same\n")
    empty = _write(tmp_path, "empty.run", "")
    code, out, err = cli(["evaluate", "--qrels", qrels, a, b, "-m", "RR@10"], capsys)
    assert code == 0, err
    # equal tags fall back to the file stems
    assert _tsv(out) == {("a", "RR(rel=1)@10", "all"): 0.75, ("b", "RR(rel=1)@10", "all"): 0.5}
    assert run_name(a) == "same" and run_name(empty) == "empty"


@pytest.mark.parametrize("text", ["", "\n  \n\t\n"])
@pytest.mark.parametrize("ties", ["trec10", "trec9", "trec", "ranked"])
def test_empty_run_is_refused(tmp_path, capsys, text, ties):
    # trec_eval: "Cannot read results file"; scoring it 0 would hide a failed retrieval job
    qrels = _write(tmp_path, "qrels.txt", "q1 0 a 1\n")
    ok = _write(tmp_path, "ok.run", "q1 Q0 a 1 2.5 t\n")
    empty = _write(tmp_path, "empty.run", text)
    code, out, err = cli(["evaluate", "--qrels", qrels, ok, empty, "-m", "RR@10", "--ties", ties], capsys)
    assert code == 2 and out == ""
    assert err == f"error: {empty}: no results in this run file (it is empty)\n"
    with pytest.raises(InputError) as e:  # the reader of database mode's RUN files too
        read_run(duckdb.connect(), empty, "r")
    assert str(e.value) == f"{empty}: no results in this run file (it is empty)"


def test_readers_load_typed_tables(tmp_path):
    con = duckdb.connect()
    q = _write(tmp_path, "q.txt", "q1 0 a 2\nq1 0 b -1\n")
    r = _write(tmp_path, "r.txt", "q1 Q0 a 1 1e3 tag\nq1 Q0 b 2 -0.5 tag\n")
    assert read_qrels(con, q, "qq") == 2
    assert read_run(con, r, "rr") == "tag"
    assert con.execute("SELECT * FROM qq ORDER BY pid").fetchall() == [("q1", "a", 2), ("q1", "b", -1)]
    assert con.execute("SELECT * FROM rr ORDER BY pid").fetchall() == [
        ("tag", "q1", "a", 1000.0, 1),
        ("tag", "q1", "b", -0.5, 2),
    ]
    assert [c[1] for c in con.execute("DESCRIBE rr").fetchall()] == [
        "VARCHAR",
        "VARCHAR",
        "VARCHAR",
        "DOUBLE",
        "INTEGER",
    ]
    with pytest.raises(InputError) as e:
        read_run(con, str(tmp_path), "x")
    assert "directory" in str(e.value)


# -- file mode keeps only each ranking's top rows ---------------------------------------


@pytest.fixture
def long_runs(tmp_path):
    """Rankings of 1-80 rows (so many longer than the measures' depth) with ties at
    every cut: exact ones (one decimal), ones only in float32, mixed-script ids; the
    rank column is shuffled so that ``--ties ranked`` orders differently."""
    rng = np.random.default_rng(5)
    stems = ["d", "D", "문단", "z_", "10", "1"]
    qrels, lines = [], []
    qd, rd = {}, {}
    for q in range(400):
        qid = f"q{q}"
        n = int(rng.integers(1, 81))
        docs = [f"{stems[j % len(stems)]}{rng.integers(0, 9)}_{j}" for j in range(n)]
        scores = np.round(rng.random(n) * 3, 1)
        scores[rng.random(n) < 0.1] += 1e-9  # equal to a neighbour in float32 only
        ranks = rng.permutation(n) + 1
        for d, s, r in zip(docs, scores, ranks):
            lines.append(f"{qid} Q0 {d} {r} {float(s)!r} sys")
            rd.setdefault(qid, {})[d] = float(s)
        for j in rng.choice(n, size=min(n, 12), replace=False):
            g = int(rng.integers(0, 3))
            qrels.append(f"{qid} 0 {docs[j]} {g}")
            qd.setdefault(qid, {})[docs[j]] = g
    rng.shuffle(lines)  # rankings interleaved: nothing may depend on the file's order
    (tmp_path / "qrels.txt").write_text("\n".join(qrels) + "\n")
    (tmp_path / "long.run").write_text("\n".join(lines) + "\n")
    return tmp_path, qd, rd


@pytest.mark.parametrize("ties", ["trec10", "trec9", "trec", "ranked"])
def test_top_rows_give_the_figures_of_the_whole_run(long_runs, ties):
    from reljudge.cli.evaluate import load_files
    from reljudge.eval.measures import parse_measures
    from reljudge.eval.metrics import evaluate, ranking_depth

    d, _, _ = long_runs
    measures = parse_measures(["RR@5", "nDCG@10", "P@3", "R@10", "Judged@10", "RR(rel=2)@10"], default_rel=1)
    results = {}
    for cut in (ranking_depth(measures), None):
        con = duckdb.connect()
        names = load_files(con, str(d / "qrels.txt"), [str(d / "long.run")], depth=cut, ties=ties)
        if cut is not None:  # only the top rows were kept
            n_rows, longest = con.execute("SELECT count(*), max(position) FROM runs").fetchone()
            assert longest == cut and n_rows < len((d / "long.run").read_text().splitlines()) / 3
        results[cut] = evaluate(
            con, "qrels", "runs", measures, ties=ties, default_rel=1, systems=names, n_boot=0, n_perm=0
        )
        con.close()
    top, whole = results[ranking_depth(measures)], results[None]
    assert_frame_equal(top.per_query, whole.per_query)
    assert_frame_equal(top.shares, whole.shares)
    assert_frame_equal(top.failures, whole.failures)
    assert whole.per_query["value"].gt(0).mean() > 0.3  # the comparison is not between zeros


@pytest.mark.parametrize("ties", ["trec10", "trec9", "ranked"])
@pytest.mark.parametrize("names", [["RR", "AP", "Bpref", "NumRet"], ["nDCG@300", "P@300", "Unj@40"], ["RR@5", "R@10"]])
def test_kept_rows_give_the_figures_of_the_whole_run_at_every_depth(long_runs, ties, names):
    """read_run_top keeps a ranking's rows with the top-n heap (depth <= TOP_N_HEAP_DEPTH)
    or by sorting every row (deeper cuts, whole-ranking measures): both give the figures
    of the whole run, ties in float32 included."""
    from reljudge.eval import ranking
    from reljudge.cli.evaluate import load_files
    from reljudge.eval.measures import parse_measures
    from reljudge.eval.metrics import per_query_values, ranking_depth

    d, _, _ = long_runs
    measures = parse_measures(names, default_rel=1)
    depth = ranking_depth(measures)
    assert (depth > ranking.TOP_N_HEAP_DEPTH) == (names[0] != "RR@5")  # both paths are exercised
    values = {}
    for cut in (depth, None):
        con = duckdb.connect()
        systems = load_files(con, str(d / "qrels.txt"), [str(d / "long.run")], depth=cut, ties=ties)
        values[cut] = per_query_values(con, "qrels", "runs", measures, ties=ties, default_rel=1, systems=systems).values
        con.close()
    # equal up to the order of a floating-point sum (nDCG's gains): 1 ulp, far below 4 decimals
    np.testing.assert_allclose(values[depth], values[None], rtol=0, atol=1e-12)
    assert (values[None] > 0).mean() > 0.3


def test_top_rows_match_trec_eval(long_runs, capsys):
    d, qd, rd = long_runs
    # pytrec-eval-terrier is trec_eval 9: scores compared as float32
    code, out, err = cli(
        [
            "evaluate",
            "--qrels",
            str(d / "qrels.txt"),
            str(d / "long.run"),
            "-m",
            "nDCG@10",
            "P@5",
            "R@10",
            "--per-query",
            "--ties",
            "trec9",
        ],
        capsys,
    )
    assert code == 0, err
    got = _tsv(out)
    ref = pytrec_eval.RelevanceEvaluator(qd, {"ndcg_cut.10", "P.5", "recall.10"}, relevance_level=1).evaluate(rd)
    for ours, theirs in [("nDCG@10", "ndcg_cut_10"), ("P(rel=1)@5", "P_5"), ("R(rel=1)@10", "recall_10")]:
        for q in qd:
            assert got[("sys", ours, q)] == pytest.approx(ref[q][theirs], abs=5e-5)


def test_duplicate_far_below_the_cut_is_found(tmp_path, capsys):
    qrels = _write(tmp_path, "qrels.txt", "q1 0 d0 1\nq2 0 d0 1\n")
    rows = [f"q{q} Q0 d{i} {i + 1} {1000 - i} t" for q in (1, 2, 3) for i in range(300)]
    rows.insert(700, "q3 Q0 d5 301 0.5 t")  # line 701: d5 again, far below the top 10
    run = _write(tmp_path, "dup.run", "\n".join(rows) + "\n")
    code, out, err = cli(["evaluate", "--qrels", qrels, run, "-m", "RR@10"], capsys)
    assert code == 2 and out == ""
    assert "line 701: document 'd5' appears twice for query 'q3'" in err


@pytest.mark.parametrize("measure", ["RR@10", "map"])
def test_a_duplicate_in_a_late_batch_of_rankings_is_found(tmp_path, capsys, measure):
    """The document hashes are checked a batch of rankings at a time (trec_io.HASH_BATCH_ROWS),
    and at full depth on the table of rows: a repeat in the last ranking is found either way."""
    from reljudge.eval.trec_io import HASH_BATCH_ROWS

    n = 2 * HASH_BATCH_ROWS + 7
    qrels = _write(tmp_path, "qrels.txt", "".join(f"q{q} 0 d0 1\n" for q in range(n)))
    rows = [f"q{q} Q0 d{i} {i + 1} {10 - i} t" for q in range(n) for i in range(3)]
    rows.append(f"q{n - 1} Q0 d1 4 0.5 t")
    run = _write(tmp_path, "dup.run", "\n".join(rows) + "\n")
    code, out, err = cli(["evaluate", "--qrels", qrels, run, "-m", measure], capsys)
    assert code == 2 and out == ""
    assert f"line {len(rows)}: document 'd1' appears twice for query 'q{n - 1}'" in err


def test_repeated_rows_finds_every_row_with_a_repeat():
    import pyarrow as pa

    from reljudge.eval.trec_io import _repeated_rows

    def rows(lists):
        return _repeated_rows(pa.array(lists, type=pa.list_(pa.uint64()))).tolist()

    assert rows([]) == [] and rows([[1], [1]]) == []
    assert rows([[3, 1, 2], [5, 4, 5], [7, 8, 9], [1, 2, 1]]) == [1, 3]  # equal lengths
    top = np.iinfo(np.uint64).max
    assert rows([[1, 2], [4, 5, 4], [top, 1], [], [top, top]]) == [1, 4]  # padded: the pad value itself repeats
    assert rows([[1, 2], [9, 8, 7], [6]]) == []
    uneven = [[1]] * 2000 + [list(range(5000)) + [17]]  # mostly padding: the (row, value) sort instead
    assert rows(uneven) == [2000]
    assert rows(
        pa.chunked_array(
            [pa.array([[1, 1]], type=pa.list_(pa.uint64())), pa.array([[2, 3]], type=pa.list_(pa.uint64()))]
        )
    ) == [0]


# -- values DuckDB's casts would round or reject unclearly -------------------------------


@pytest.mark.parametrize(
    "qrels_text, fragment",
    [
        # trec_eval truncates (atol); reljudge refuses rather than guess a grade
        ("q1 0 a 1\nq1 0 b 1.5\n", "line 2: relevance '1.5' is not a whole number"),
        ("q1 0 a 0.5\nq1 0 b 1\n", "line 1: relevance '0.5' is not a whole number"),
        ("q1 0 a 1\nq1 0 b 2.0\n", "line 2: relevance '2.0' is not a whole number"),
        ("q1 0 a 1\nq1 0 b 1e0\n", "line 2: relevance '1e0' is not a whole number"),
        ("q1 0 a 1\nq1 0 b 0x1\n", "line 2: relevance '0x1' is not a whole number"),
        ("q1 0 a 1\nq1 0 b 1_0\n", "line 2: relevance '1_0' is not a whole number"),
        ("q1\t0\ta\t1\nq1\t0\tb\t-1.5\n", "line 2: relevance '-1.5' is not a whole number"),  # tab-separated
        ("q1 0 a 1\nq1  0 b 1.5\n", "line 2: relevance '1.5' is not a whole number"),  # irregular spacing
    ],
)
def test_fractional_grades_are_refused_not_rounded(tmp_path, capsys, qrels_text, fragment):
    qrels = _write(tmp_path, "qrels.txt", qrels_text)
    run = _write(tmp_path, "ok.run", "q1 Q0 a 1 2.5 t\nq1 Q0 b 2 2.0 t\n")
    code, out, err = cli(["evaluate", "--qrels", qrels, run, "-m", "nDCG@10"], capsys)
    assert code == 2 and out == ""
    assert err == f"error: {qrels}, {fragment}\n"


@pytest.mark.parametrize("ties", ["ranked"])
@pytest.mark.parametrize(
    "run_text, fragment",
    [
        ("q1 Q0 a 1.0 2.5 t\nq1 Q0 b 2 2.0 t\n", "line 1: rank '1.0' is not a whole number"),
        ("q1 Q0 a 1 2.5 t\nq1 Q0 b x 2.0 t\n", "line 2: rank 'x' is not a whole number"),
        ("q1 Q0 a 1 2.5 t\nq1 Q0 b 1.5 2.0 t\n", "line 2: rank '1.5' is not a whole number"),
        ("q1 Q0 a 1 2.5 t\nq1 Q0 b 2e0 2.0 t\n", "line 2: rank '2e0' is not a whole number"),
    ],
)
def test_fractional_ranks_are_refused(tmp_path, capsys, run_text, fragment, ties):
    """Under --ties ranked the rank column orders the ranking: it must be a whole number.
    (Under the score rules it is never read, as in trec_eval: see the next test.)"""
    qrels = _write(tmp_path, "qrels.txt", "q1 0 a 1\n")
    run = _write(tmp_path, "bad.run", run_text)
    code, out, err = cli(["evaluate", "--qrels", qrels, run, "-m", "RR@10", "--ties", ties], capsys)
    assert code == 2 and out == ""
    assert err == f"error: {run}, {fragment}\n"
    # the reader behind database mode and `evaluate RUN...` says the same
    with pytest.raises(InputError) as e:
        read_run(duckdb.connect(), run, "r")
    assert str(e.value) == f"{run}, {fragment}"


@pytest.mark.parametrize(
    "qrels_text, fragment",
    [
        ("q1 0 a 1\nq1 0 b 0\nq1 0 c 2147483648\n", "line 3: relevance '2147483648' is out of range"),
        ("q1 0 a -2147483649\n", "line 1: relevance '-2147483649' is out of range"),
        ("q1 0 a 99999999999999999999\n", "line 1: relevance '99999999999999999999' is out of range"),
    ],
)
def test_grade_out_of_integer_range_names_file_line_and_value(tmp_path, capsys, qrels_text, fragment):
    qrels = _write(tmp_path, "qrels.txt", qrels_text)
    run = _write(tmp_path, "ok.run", "q1 Q0 a 1 2.5 t\n")
    code, out, err = cli(["evaluate", "--qrels", qrels, run, "-m", "nDCG@10"], capsys)
    assert code == 2 and out == ""
    assert err.startswith(f"error: {qrels}, {fragment}") and len(err.splitlines()) == 1


def test_extreme_grades_and_ranks_within_range_are_read(tmp_path):
    con = duckdb.connect()
    q = _write(tmp_path, "q.txt", "q1 0 a 2147483647\nq1 0 b -2147483648\nq1 0 c +1\nq1 0 d 007\n")
    assert read_qrels(con, q, "qq") == 4
    assert con.execute("SELECT pid, grade FROM qq ORDER BY pid").fetchall() == [
        ("a", 2147483647),
        ("b", -2147483648),
        ("c", 1),
        ("d", 7),
    ]
    r = _write(tmp_path, "r.txt", "q1 Q0 a 2147483647 1 t\nq1 Q0 b 2147483648 2 t\n")
    with pytest.raises(InputError) as e:
        read_run(con, r, "rr")
    assert str(e.value).startswith(f"{r}, line 2: rank '2147483648' is out of range")


@pytest.mark.parametrize("measure", ["R@1000000", "P@5000000", "nDCG@99999999999999999999"])
def test_cutoff_beyond_the_limit_blames_the_measure(tmp_path, capsys, measure):
    qrels = _write(tmp_path, "qrels.txt", "q1 0 a 1\n")
    run = _write(tmp_path, "ok.run", "q1 Q0 a 1 2.5 t\n")
    code, out, err = cli(["evaluate", "--qrels", qrels, run, "-m", "RR@10", measure], capsys)
    assert code == 2 and out == ""
    assert err.startswith(f"error: measure {measure!r}: cutoff ") and "too large (at most 999999)" in err
    assert run not in err and len(err.splitlines()) == 1


def test_largest_cutoff_is_evaluated(tmp_path, capsys):
    qrels = _write(tmp_path, "qrels.txt", "q1 0 a 1\nq1 0 z 1\nq2 0 b 1\n")
    run = _write(tmp_path, "ok.run", "q1 Q0 a 1 2.5 t\nq1 Q0 c 2 2.0 t\nq2 Q0 c 1 1.0 t\n")
    code, out, err = cli(["evaluate", "--qrels", qrels, run, "-m", "R@999999", "P@999999"], capsys)
    assert code == 0, err
    assert _tsv(out) == {("t", "R(rel=1)@999999", "all"): 0.25, ("t", "P(rel=1)@999999", "all"): 0.0}


def test_help_says_dedup_does_not_apply_to_files(capsys):
    # file mode refuses a repeated docno (as trec_eval), so --dedup can change nothing there
    with pytest.raises(SystemExit):
        cli(["evaluate", "--help"], capsys)
    text = " ".join(capsys.readouterr().out.split())
    dedup = text[text.rindex("--dedup {first,keep}") : text.rindex("--policy POLICY")]  # the option, not the usage
    assert "database mode" in dedup and "no effect with --qrels" in dedup
    assert "repeated docno is an error" in dedup


def test_dedup_keep_with_files_still_refuses_a_repeated_docno(tmp_path, capsys):
    qrels = _write(tmp_path, "qrels.txt", "q1 0 a 1\n")
    run = _write(tmp_path, "dup.run", "q1 Q0 a 1 2.5 t\nq1 Q0 a 2 2.0 t\n")
    for dedup in ("first", "keep"):
        code, out, err = cli(["evaluate", "--qrels", qrels, run, "-m", "RR@10", "--dedup", dedup], capsys)
        assert code == 2 and out == ""
        assert err == f"error: {run}, line 2: document 'a' appears twice for query 'q1' in this run\n"


@pytest.mark.parametrize(
    "ties, rr, named", [("trec10", 1.0, "trec10"), ("trec", 1.0, "trec10"), ("trec9", 0.5, "trec9")]
)
def test_tie_rule_names_its_trec_eval_version(tmp_path, capsys, ties, rr, named):
    # 0.500000001 > 0.5 as doubles (trec_eval 10); equal as float32 (trec_eval 9: id desc, b first)
    qrels = _write(tmp_path, "qrels.txt", "q1 0 a 1\n")
    run = _write(tmp_path, "t.run", "q1 Q0 a 1 0.500000001 t\nq1 Q0 b 2 0.5 t\n")
    code, out, err = cli(["evaluate", "--qrels", qrels, run, "-m", "RR@10", "--ties", ties], capsys)
    assert code == 0, err
    assert out.splitlines()[0].startswith(f"# ties: {named} (trec_eval {named[4:]}: ")
    assert _tsv(out) == {("t", "RR(rel=1)@10", "all"): rr}
    code, out, err = cli(
        ["evaluate", "--qrels", qrels, run, "-m", "RR@10", "--ties", ties, "--format", "table"], capsys
    )
    assert code == 0 and f"# ties: {named} (trec_eval" in out and f"ties: {named}: trec_eval" in out
    code, out, err = cli(["evaluate", "--qrels", qrels, run, "-m", "RR@10", "--ties", ties, "--format", "json"], capsys)
    assert json.loads(out)["policies"]["ties"] == named


def test_comment_lines_are_skipped_as_trec_eval_10(tmp_path, capsys):
    # trec_eval 10: a line whose first non-blank character is '#' is a comment, in both files
    qrels = _write(tmp_path, "qrels.txt", "# judged by hand\nq1 0 a 1\n  # q1 0 b 1\nq1 0 c 0\n")
    run = _write(tmp_path, "t.run", "# run t, 2026\nq1 Q0 c 1 2 t\n\t# q1 Q0 b 2 1.5 t\nq1 Q0 a 2 1 t\n# a b 1 2 c\n")
    code, out, err = cli(["evaluate", "--qrels", qrels, run, "-m", "RR@10", "R@10"], capsys)
    assert code == 0, err
    assert _tsv(out) == {("t", "RR(rel=1)@10", "all"): 0.5, ("t", "R(rel=1)@10", "all"): 1.0}
    # a '#' inside a line is data
    run2 = _write(tmp_path, "u.run", "q1 Q0 a#1 1 2 u\nq1 Q0 a 2 1 u\n")
    code, out, err = cli(["evaluate", "--qrels", qrels, run2, "-m", "RR@10"], capsys)
    assert code == 0 and _tsv(out) == {("u", "RR(rel=1)@10", "all"): 0.5}


def test_trec_eval_format_averages_like_trec_eval_with_and_without_c(tmp_path, capsys):
    qrels = _write(tmp_path, "qrels.txt", "q1 0 a 1\nq2 0 b 1\n")
    run = _write(tmp_path, "t.run", "q1 Q0 a 1 2 t\nq9 Q0 a 1 2 t\n")
    code, out, err = cli(
        ["evaluate", "--qrels", qrels, run, "-m", "recip_rank", "num_q", "runid", "--format", "trec_eval"], capsys
    )
    assert code == 0, err
    assert (
        out == "runid                 \tall\tt\nnum_q                 \tall\t1\nrecip_rank            \tall\t1.0000\n"
    )
    code, out, err = cli(
        ["evaluate", "--qrels", qrels, run, "-m", "recip_rank", "--format", "trec_eval", "-c", "-q"], capsys
    )
    assert out == (
        "recip_rank            \tq1\t1.0000\nrecip_rank            \tq2\t0.0000\nrecip_rank            \tall\t0.5000\n"
    )


def test_trec_eval_flags_errors_and_defaults(tmp_path, capsys):
    qrels = _write(tmp_path, "qrels.txt", "q1 0 a 1\nq1 0 b 0\n")
    run = _write(tmp_path, "r.run", "q1 Q0 b 1 2.5 first\nq1 Q0 a 2 2.0 last\n")
    # without -m only --format trec_eval has a default (trec_eval's official set)
    code, out, err = cli(["evaluate", "--qrels", qrels, run], capsys)
    assert code == 2 and "no measure given" in err
    code, out, err = cli(["evaluate", "--qrels", qrels, run, "--format", "trec_eval"], capsys)
    assert code == 0 and out.startswith("runid                 \tall\tlast\nnum_q                 \tall\t1\n")
    assert "map                   \tall\t0.5000\n" in out and "P_1000                \tall\t0.0010\n" in out
    code, out, err = cli(["evaluate", "--qrels", qrels, run, "-m", "RR", "-M", "0"], capsys)
    assert code == 2 and "-M 0" in err
    # -M 1 keeps b only; -J keeps both (both judged)
    code, out, err = cli(
        ["evaluate", "--qrels", qrels, run, "--format", "trec_eval", "-M", "1", "-m", "num_ret", "recip_rank"], capsys
    )
    assert out == "num_ret               \tall\t1\nrecip_rank            \tall\t0.0000\n"
    # tsv sums the counts too
    code, out, err = cli(["evaluate", "--qrels", qrels, run, "-m", "num_ret", "NumQ"], capsys)
    assert "\tNumRet\tall\t2.0000" in out and "\tNumQ\tall\t1.0000" in out


@pytest.mark.parametrize("measure", ["RR@10", "map"])
def test_too_little_memory_is_said_as_such_not_blamed_on_a_file(tmp_path, capsys, monkeypatch, measure):
    """With less memory than the reading needs (here RELJUDGE_MEMORY_LIMIT=2MB), the command
    says so and how to give more; it used to report "cannot read as TREC qrels" (or
    scanned the file line by line, needing more memory still)."""
    from reljudge.cli import main as reljudge_cli

    rng = random.Random(1)
    qrels = _write(tmp_path, "qrels.txt", "".join(f"q{q} 0 d{d} 1\n" for q in range(300) for d in range(5)))
    run = _write(
        tmp_path,
        "run.txt",
        "".join(f"q{q} Q0 d{d} {d + 1} {rng.random():.6f} t\n" for q in range(300) for d in range(200)),
    )
    monkeypatch.setenv("RELJUDGE_MEMORY_LIMIT", "2MB")
    assert reljudge_cli.main(["evaluate", "--qrels", qrels, run, "-m", measure]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: not enough memory") and "RELJUDGE_MEMORY_LIMIT" in err, err
    assert "cannot read" not in err and "Traceback" not in err
    monkeypatch.setenv("RELJUDGE_MEMORY_LIMIT", "1GB")
    assert reljudge_cli.main(["evaluate", "--qrels", qrels, run, "-m", measure]) == 0


@pytest.mark.parametrize("ties", ["trec10", "trec9", "ranked"])
def test_jsonl_and_csv_runs_evaluate_as_their_trec_file(files, capsys, ties):
    """`evaluate --qrels` takes the JSONL and CSV runs that `import run` accepts (the same
    reader), and gives the numbers of the same run as a TREC file, under every tie rule."""
    import csv

    d, _, _ = files
    lines = (d / "bm25.run").read_text().split("\n")
    rows = [line.split() for line in lines if line.strip()]
    with open(d / "bm25.jsonl", "w", encoding="utf-8") as fh:
        for qid, _q0, pid, rank, score, tag in rows:
            fh.write(
                json.dumps({"qid": qid, "pid": pid, "rank": int(rank), "score": float(score), "system": tag}) + "\n"
            )
    with open(d / "bm25.csv", "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["qid", "docid", "rank", "score", "tag"])
        w.writerows([qid, pid, rank, score, tag] for qid, _q0, pid, rank, score, tag in rows)
    measures = ["-m", "RR@10", "nDCG@10", "P@5", "R@20", "--ties", ties, "--per-query"]
    results = []
    for name in ("bm25.run", "bm25.jsonl", "bm25.csv"):
        code, out, err = cli(["evaluate", "--qrels", str(d / "qrels.txt"), str(d / name), *measures], capsys)
        assert code == 0, err
        results.append(_tsv(out))
    assert results[0] == results[1] == results[2] and len(results[0]) > 100


def test_a_table_run_without_scores_or_ranks_and_bad_lines(tmp_path, capsys):
    qrels = _write(tmp_path, "qrels.txt", "q1 0 a 1\nq1 0 b 0\n")
    ranks = _write(
        tmp_path,
        "r.jsonl",
        '{"qid":"q1","pid":"b","rank":1,"system":"r"}\n'
        '{"qid":"q1","pid":"a","rank":2,"system":"r"}\n'
        '{"qid":"q2","abstained":true,"system":"r"}\n',
    )
    code, out, err = cli(["evaluate", "--qrels", qrels, ranks, "-m", "RR@10"], capsys)
    assert code == 0 and _tsv(out) == {("r", "RR(rel=1)@10", "all"): 0.5}, err
    bad = _write(tmp_path, "bad.jsonl", '{"qid":"q1","pid":"a","rank":1,"system":"s"}\n{"qid":"q1","system":"s"}\n')
    code, out, err = cli(["evaluate", "--qrels", qrels, bad, "-m", "RR@10"], capsys)
    assert code == 2 and f"{bad}, line 2" in err and "Traceback" not in err


def test_import_run_skips_comment_lines_as_evaluate_does(tmp_path):
    """One rule for both readers: a '#' line in a TREC run is a comment for `import run`
    too (it was refused: "expected 6 fields … found 8")."""
    from reljudge.campaign import importers

    run = _write(tmp_path, "t.run", "# run t, made 2026-12-03 by the lab\nq1 Q0 c 1 2 t\n  # q1 Q0 b 2 1.5 t\n")
    frame = next(importers.run_chunks(importers.Source.of(run)))
    assert list(frame.pid) == ["c"]


def test_a_fresh_process_evaluates_trec_and_jsonl_runs_in_every_format(tmp_path):
    """In a fresh process `evaluate` keeps pandas out for TREC files (a fast start) and
    lets it in for the JSONL/CSV reader: both work in tsv and trec_eval formats."""
    import subprocess
    import sys

    qrels = _write(tmp_path, "qrels.txt", "q1 0 a 1\nq1 0 b 0\n")
    trec = _write(tmp_path, "t.run", "q1 Q0 b 1 2 t\nq1 Q0 a 2 1 t\n")
    table = _write(
        tmp_path,
        "j.jsonl",
        '{"qid":"q1","pid":"b","score":2,"system":"j"}\n{"qid":"q1","pid":"a","score":1,"system":"j"}\n',
    )
    for run in (trec, table):
        for fmt in (["-m", "RR@10"], ["--format", "trec_eval", "-m", "recip_rank"]):
            r = subprocess.run(
                [sys.executable, "-m", "reljudge", "evaluate", "--qrels", qrels, run, *fmt],
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert r.returncode == 0 and "0.5000" in r.stdout, (run, fmt, r.stderr)


def test_one_trec_line_rule_for_every_reader(tmp_path, capsys):
    """`import run`, `import qrels` and `evaluate --qrels` read TREC lines by one rule
    (trec_io.trec_lines): a BOM, blank lines, tabs and '#' comments are accepted alike, and a
    line with the wrong number of fields is refused by each with the same line and words."""
    from reljudge.campaign import export, importers
    from reljudge.errors import InputError

    qrels = _write(tmp_path, "q.qrels", "\ufeff# judged 2026-12-04\n\nq1\t0\ta\t2\n  # q1 0 zz 1\nq1 0 b 0\n")
    run = _write(tmp_path, "r.run", "\ufeff# run r\nq1\tQ0\tb\t1\t2\tr\n\nq1 Q0 a 2 1 r\n")
    assert export.read_qrels(qrels)[["qid", "pid", "grade"]].values.tolist() == [["q1", "a", 2], ["q1", "b", 0]]
    assert list(next(importers.run_chunks(importers.Source.of(run))).pid) == ["b", "a"]
    code, out, err = cli(["evaluate", "--qrels", qrels, run, "-m", "RR@10"], capsys)
    assert code == 0 and _tsv(out) == {("r", "RR(rel=1)@10", "all"): 0.5}, err

    bad_qrels = _write(tmp_path, "bad.qrels", "q1 0 a 2\n# note\nq1 0 b\n")
    bad_run = _write(tmp_path, "bad.run", "q1 Q0 a 1 2 r\n\nq1 Q0 b 2 r\n")
    with pytest.raises(InputError) as caught:
        export.read_qrels(bad_qrels)
    assert str(caught.value) == f"{bad_qrels}, line 3: expected 4 fields (qid iter docid rel), found 3"
    with pytest.raises(InputError) as caught:
        next(importers.run_chunks(importers.Source.of(bad_run)))
    assert str(caught.value) == f"{bad_run}, line 3: expected 6 fields (qid Q0 docid rank score tag), found 5"
    code, _, err = cli(["evaluate", "--qrels", bad_qrels, run, "-m", "RR@10"], capsys)
    assert code == 2 and f"{bad_qrels}, line 3: expected 4 fields (qid iter docid rel), found 3" in err
    code, _, err = cli(["evaluate", "--qrels", qrels, bad_run, "-m", "RR@10"], capsys)
    assert code == 2 and f"{bad_run}, line 3: expected 6 fields (qid Q0 docid rank score tag), found 5" in err


def test_help_spells_every_measure_once_and_each_spelling_parses(capsys):
    # the measure list of --help is the registry's; it once read nDCG@K@K, Unj@K@K, Judged@K@K
    import re

    from reljudge.eval.measures import FAMILIES, parse_measure

    with pytest.raises(SystemExit):
        cli(["evaluate", "--help"], capsys)
    text = capsys.readouterr().out
    assert not re.search(r"@[Kx]\]?\S*@[Kx]\b", text.replace(" / ", "\n"))
    for f in FAMILIES:
        line = next(line for line in text.splitlines() if re.match(rf"  {f.name}\b(?![(\w])|  {f.name}\(", line))
        spellings = re.match(r"  (\S+(?: / \S+)?) ", line).group(1).split(" / ")
        assert len(spellings) == (2 if f.takes_rel else 1), line
        for spelling in spellings:
            for form in {spelling.replace("[@K]", ""), spelling.replace("[@K]", "@K")}:
                concrete = form.replace("@K", "@10").replace("@x", "@0.5").replace("rel=N", "rel=2")
                assert form.count("@") <= 1, line
                parse_measure(concrete, 1)
