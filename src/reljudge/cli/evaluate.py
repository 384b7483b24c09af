"""`reljudge evaluate`: trec_eval-style evaluation of TREC runs, and of the campaign.

A thin layer over :mod:`reljudge.eval.metrics`.  With ``--qrels`` it works on plain
files like trec_eval (no database touched; threshold default rel=1, as
trec_eval); without it, it evaluates against the campaign's judgments
(:func:`evaluate_database`, threshold default 2 = citable).
"""

from __future__ import annotations

import json
import math
import shutil
import sys
import tempfile
from pathlib import Path

import duckdb
import numpy as np

from reljudge import i18n
from reljudge.codes import Codes
from reljudge.eval import ranking
from reljudge.errors import DatabaseLockedError, ReljudgeError
from reljudge.eval.measures import (
    Measure,
    parse_measures,
    parse_trec_eval_measures,
    summary_of,
    trec_name,
    trec_order,
)
from reljudge.eval.metrics import (
    ALL,
    RANDOMIZATION,
    TIES,
    EvalResult,
    PerQueryValues,
    evaluate,
    per_query_values,
    ranking_depth,
    summarise,
)
from reljudge.eval.trec_io import read_qrels, read_run, read_run_top, run_name, run_tag

FILE_MODE_REL = 1  # trec_eval's default relevance_level

CODES = Codes(
    error_trec_eval_needs_qrels=(),
    error_file_flags_need_qrels=(),
    error_no_measure_trec_eval_default=(),
    error_nothing_to_evaluate=("qrels",),
    error_nothing_to_evaluate_no_answer=("n", "qrels"),
    error_run_given_twice=(),
    error_no_run_given=(),
    error_max_docs_small=("value",),
    error_run_no_common_query=("system",),
    note_bounds_only=(),
    note_bounds_only_no_answer=("n",),
)
"""What this command can tell people: codes worded by reljudge.i18n (the CLI prints the English)."""


def run_evaluate(args) -> int:
    """Handler: returns the exit code; user errors print one line to stderr and give 2."""
    try:
        if args.qrels is None:
            return evaluate_database(args)
        return evaluate_files(args)
    except DatabaseLockedError:
        raise  # the command line's: a running app that holds the file carries it out
    except ReljudgeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # output piped into `head` and the like: not an error of ours
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


# -- database mode (wired by the campaign storage) ------------------------------------


def evaluate_database(args) -> int:
    """Evaluate the campaign's runs (or ``args.runs``) against the judgments in ``args.db``
    (aggregated under ``--policy``, or a frozen ``--version``)."""
    import pandas as pd

    from reljudge.campaign.evaluation import default_measures, evaluate_campaign, settings_ks
    from reljudge.storage import catalog, open_database

    if args.format == "trec_eval":
        raise ReljudgeError(CODES("error_trec_eval_needs_qrels"))
    if args.max_docs is not None or args.judged_only:
        raise ReljudgeError(CODES("error_file_flags_need_qrels"))
    db = open_database(getattr(args, "db", None), must_exist=True)
    try:
        threshold = int(catalog.get_settings(db)["rel_threshold"])
        # Without -m: the campaign's own measures, the dashboard's (issue 39.9).
        measures = (
            parse_measures(args.measures, default_rel=threshold)
            if args.measures
            else default_measures(settings_ks(db), threshold)
        )
        run = None
        names = None
        if args.runs:
            con = duckdb.connect()
            try:
                names = _names(list(args.runs))
                frames = []
                for i, (path, name) in enumerate(zip(args.runs, names)):
                    read_run(con, path, f"run_{i}", system=name)
                    frames.append(con.execute(f"SELECT system, qid, pid, score, rank FROM run_{i}").df())
                run = pd.concat(frames, ignore_index=True)
            finally:
                con.close()
        stats = args.format != "tsv"
        ev = evaluate_campaign(
            db,
            measures,
            threshold=threshold,
            policy=args.policy,
            version=args.version,
            ties=args.ties,
            dedup=args.dedup,
            systems=names,
            run=run,
            n_boot=1000 if stats else 0,
            n_perm=RANDOMIZATION.permutations if stats else 0,
        )
    finally:
        db.close()
    n = ev.result.n_questions
    # a pooled answerable question gives bounds even before anyone judged it
    bounded = ev.result.bounds is not None and bool((~ev.result.bounds.no_answer.astype(bool)).any())
    if not n["answerable"] and not bounded:
        if n["no_answer"]:
            raise ReljudgeError(CODES("error_nothing_to_evaluate_no_answer", n=n["no_answer"], qrels=ev.qrels_label))
        raise ReljudgeError(CODES("error_nothing_to_evaluate", qrels=ev.qrels_label))
    if not n["answerable"]:
        note = CODES("note_bounds_only_no_answer", n=n["no_answer"]) if n["no_answer"] else CODES("note_bounds_only")
        print(f"reljudge evaluate: {i18n.message(note, 'en')}", file=sys.stderr)
    return write_result(
        ev.result,
        args,
        {"qrels": ev.qrels_label, "no_answer_qids": ev.no_answer_qids},
        heading=f"# qrels: {ev.qrels_label}",
    )


# -- file mode ------------------------------------------------------------------------


def _names(paths: list[str]) -> list[str]:
    """Run names: the tag, else the file stem; on a clash, the stems, then the paths."""
    tags = [run_name(p) for p in paths]
    names = []
    for p, tag in zip(paths, tags):
        if tags.count(tag) == 1:
            names.append(tag)
        elif [Path(q).stem for q in paths].count(Path(p).stem) == 1:
            names.append(Path(p).stem)
        else:
            names.append(p)
    if len(set(names)) != len(names):
        raise ReljudgeError(CODES("error_run_given_twice"))
    return names


#: Run files read by ``reljudge import run``'s JSONL/CSV reader (by suffix); others are TREC.
TABLE_RUN_SUFFIXES = (".jsonl", ".ndjson", ".json", ".csv")


def as_trec_runs(paths: list[str], folder: str, ties: str) -> list[str]:
    """The run files as TREC files: a JSONL or CSV run (the formats ``reljudge import
    run`` accepts, read by the same reader) is written as a TREC file in its ranking's
    order under ``ties`` in ``folder`` (same file stem, so run names stay); TREC files
    are used as they are."""
    out = []
    for i, path in enumerate(paths):
        if Path(path).suffix.lower() not in TABLE_RUN_SUFFIXES:
            out.append(path)
            continue
        from reljudge.campaign.importers import write_run_as_trec  # pandas: only for these files

        target = Path(folder) / f"run{i}" / f"{Path(path).stem}.trec"
        target.parent.mkdir()
        write_run_as_trec(Path(path), target, ties)
        out.append(str(target))
    return out


def load_files(
    con: duckdb.DuckDBPyConnection,
    qrels_path: str,
    run_paths: list[str],
    depth: int | None = None,
    ties: str = ranking.DEFAULT_TIES,
) -> list[str]:
    """Load the qrels into table ``qrels`` and the runs into view ``runs``; returns the run names.

    With ``depth``, only the top ``depth`` rows of each ranking under ``ties`` are
    kept (:func:`read_run_top`: every line is still checked), which is all that
    measures of that :func:`ranking_depth` look at; else every row.
    """
    read_qrels(con, qrels_path, "qrels")
    names = _names(run_paths)
    for i, (path, name) in enumerate(zip(run_paths, names)):
        if depth is None:
            read_run(con, path, f"run_{i}", system=name)
        else:
            read_run_top(con, path, f"run_{i}", depth, ties=ties, system=name)
    con.execute(
        "CREATE OR REPLACE VIEW runs AS " + " UNION ALL ".join(f"SELECT * FROM run_{i}" for i in range(len(names)))
    )
    return names


#: DuckDB's memory limit while every row of the runs is kept (a measure of the whole
#: ranking, or a cutoff deeper than ranking.TOP_N_HEAP_DEPTH; the default -m official):
#: the rankings are sorted by a window, which spills to a temporary directory beyond it,
#: so a 10-million-line run takes about as much memory as a 1-million-line one
#: (bench/bench_evaluate.py). $RELJUDGE_MEMORY_LIMIT sets another.
DEEP_MEMORY_LIMIT = "256MB"


def bounded_memory(con: duckdb.DuckDBPyConnection, default: str | None) -> str:
    """Give ``con`` a temporary directory of its own to spill to and a memory limit:
    $RELJUDGE_MEMORY_LIMIT, else ``default`` (None: DuckDB's own, 80 % of RAM); returns
    the directory (the caller removes it)."""
    from reljudge.storage.db import memory_limit

    limit = memory_limit() or default
    spill = tempfile.mkdtemp(prefix="reljudge-evaluate-")
    if limit:
        con.execute(f"SET memory_limit = '{limit}'")
    con.execute("SET temp_directory = '" + spill.replace("'", "''") + "'")
    return spill


def evaluate_files(args) -> int:
    if not args.runs:
        raise ReljudgeError(CODES("error_no_run_given"))
    level = FILE_MODE_REL if args.level is None else args.level
    if args.max_docs is not None and args.max_docs < 1:
        raise ReljudgeError(CODES("error_max_docs_small", value=args.max_docs))
    if not args.measures:
        if args.format != "trec_eval":
            raise ReljudgeError(CODES("error_no_measure_trec_eval_default"))
        args.measures = ["official"]
    names_asked = list(args.measures)
    want_runid = args.format == "trec_eval" and any(n.strip() in ("runid", "official") for n in names_asked)
    filler = False  # -m runid alone: num_q is evaluated (something must be) but not printed
    if want_runid:
        names_asked = [n for n in names_asked if n.strip() != "runid"]
        if not names_asked:
            names_asked, filler = ["num_q"], True
    measures = (parse_trec_eval_measures if args.format == "trec_eval" else parse_measures)(
        names_asked, default_rel=level
    )
    extra: list[Measure] = []
    if args.format == "trec_eval" and args.complete and any(m.name == "NumRel" for m in measures):
        # trec_eval -c sums num_rel over every qrels query as grade > 0 (m_num_rel.c)
        extra = [Measure("NumRel", None, 1)]
    stats = args.format in ("json", "table")
    # a JSONL/CSV run is read by the import's reader, which uses pandas
    tables = any(Path(f).suffix.lower() in TABLE_RUN_SUFFIXES for f in args.runs)
    blocked = not stats and not tables and "pandas" not in sys.modules
    if blocked:
        # tsv and trec_eval output need no pandas, but DuckDB's Python client imports it on
        # the first bound parameter if it can (to recognise its types), and that import is
        # most of a small evaluation's time (50 questions × 4 runs: 0.54 s -> 0.37 s).
        # Marked absent for this evaluation only; DuckDB then binds plain Python values.
        sys.modules["pandas"] = None
    con = duckdb.connect()
    depth = ranking_depth(measures + extra, args.max_docs, args.judged_only)
    spill = bounded_memory(con, DEEP_MEMORY_LIMIT if depth > ranking.TOP_N_HEAP_DEPTH else None)
    try:
        # file order does not matter to the evaluation; dropping it saves memory on big runs
        con.execute("SET preserve_insertion_order = false")
        runs = as_trec_runs(list(args.runs), spill, args.ties)
        # the run files are read once and only each ranking's top rows are kept
        names = load_files(con, args.qrels, runs, depth=depth, ties=args.ties)
        every = measures + [m for m in extra if m not in measures]
        options = dict(
            ties=args.ties,
            dedup=args.dedup,
            default_rel=level,
            systems=names,
            max_docs=args.max_docs,
            judged_only=args.judged_only,
        )
        if stats:
            result = evaluate(con, "qrels", "runs", every, **options, n_boot=1000, n_perm=RANDOMIZATION.permutations)
        else:
            # tsv and trec_eval need only the per-query values: no pandas, a fast start
            result = per_query_values(con, "qrels", "runs", every, **options)
        if args.format == "trec_eval":
            run_qids = {
                n: {r[0] for r in con.execute(f"SELECT DISTINCT qid FROM run_{i}").fetchall()}
                for i, n in enumerate(names)
            }
            tags = [run_tag(f) for f in runs] if want_runid else [""] * len(runs)
    finally:
        con.close()
        shutil.rmtree(spill, ignore_errors=True)
        if blocked and sys.modules.get("pandas", 0) is None:
            del sys.modules["pandas"]
    if args.format == "trec_eval":
        asked = [m for m in measures if not (filler and m.name == "NumQ")]
        write_trec_eval(
            result,
            sys.stdout,
            asked,
            run_qids,
            tags,
            per_query=args.per_query,
            complete=args.complete,
            runid=want_runid,
        )
        return 0
    if args.format == "tsv":
        sys.stdout.write(f"# ties: {result.ties} ({TIES[result.ties]})\n")
        write_tsv_values(result, sys.stdout, measures, per_query=args.per_query)
        return 0
    return write_result(
        result, args, {"qrels": args.qrels, "runs": [{"name": n, "file": f} for n, f in zip(names, args.runs)]}
    )


# -- output ---------------------------------------------------------------------------


def write_trec_eval(
    result: PerQueryValues,
    out,
    measures,
    run_qids: dict[str, set],
    tags: list[str],
    per_query: bool = False,
    complete: bool = False,
    runid: bool = False,
) -> None:
    """Print ``result`` as trec_eval prints it (``meas_print_single.c``,
    ``meas_print_final.c``: ``"%-22s\t%s\t%6.4f\n"``, ``"%ld"`` for the counts num_q,
    num_ret, num_rel, num_rel_ret), one block per run in the order given.

    The queries are those of the qrels that the run holds, or with ``complete`` every
    qrels query (trec_eval -c); the "all" value is each measure's summary over them
    (:func:`reljudge.eval.metrics.summarise`: the mean; the sum for the counts; the
    geometric mean for gm_map, which has no per-query lines).  With ``complete``,
    num_rel's "all" value counts the judgments with grade > 0 of every qrels query,
    whatever -l says, as trec_eval does (``m_num_rel.c``: te_calc_avg_num_rel).
    With ``per_query`` each query's lines come first, queries in byte order (trec_eval
    sorts them with ``strcmp``), measures in trec_eval's order.  Under trec9 a query
    missing from the run gets no per-query lines (trec_eval 9 prints none for it);
    under trec10 and ranked it gets them, as trec_eval 10.0 does.  A measure trec_eval
    lacks (RR@K, Judged@K) is printed under its reljudge name.
    """
    ordered = sorted(dict.fromkeys(measures), key=trec_order)
    names = [str(m) for m in result.measures]
    lines = []
    for s, (system, tag) in enumerate(zip(result.systems, tags)):
        values = {
            (q, m): float(result.values[s, qi, mi]) for qi, q in enumerate(result.qids) for mi, m in enumerate(names)
        }
        all_q = sorted(result.qids.tolist(), key=lambda q: q.encode("utf-8"))
        held = run_qids.get(system, set())
        qids = all_q if complete else [q for q in all_q if q in held]
        if not qids:
            raise ReljudgeError(CODES("error_run_no_common_query", system=system))
        if per_query:
            shown = qids if result.ties != "trec9" else [q for q in qids if q in held]
            for q in shown:
                for m in ordered:
                    if m.name not in ("NumQ", "GMAP"):
                        lines.append(_trec_line(m, q, values[(q, str(m))]))
        if runid:
            lines.append(f"{'runid':<22}\tall\t{tag}")
        for m in ordered:
            if m.name == "NumQ":
                lines.append(f"{'num_q':<22}\tall\t{len(qids)}")
                continue
            basis = m
            if m.name == "NumRel" and complete:
                basis = Measure("NumRel", None, 1)
            col = np.array([[values[(q, str(basis))] for q in qids]], dtype=float).T
            figure = summarise(col, np.array([summary_of(m)], dtype=object), 0, 0)[0][0]
            lines.append(_trec_line(m, "all", figure))
    out.write("".join(line + "\n" for line in lines))


def _trec_line(m, qid: str, value: float) -> str:
    if math.isnan(value):
        # C's printf of the NaN of 0.0 / 0.0 (trec_eval -J, iprec_at_recall): "  -nan"
        return f"{trec_name(m) or str(m):<22}\t{qid}\t{'-nan':>6}"
    if summary_of(m) == "sum":
        return f"{trec_name(m) or str(m):<22}\t{qid}\t{int(round(value))}"
    return f"{trec_name(m) or str(m):<22}\t{qid}\t{value:6.4f}"


def write_result(result: EvalResult, args, extra: dict, heading: str | None = None) -> int:
    """Print ``result`` in ``args.format``; ``extra`` joins the json document."""
    out = sys.stdout
    p = result.policies
    # every output names the tie rule and its trec_eval version (json: in "policies")
    rule = f"# ties: {p['ties']} ({p['ties_rule']})"
    if args.format == "tsv":
        out.write(rule + "\n")
        write_tsv(result, out, per_query=args.per_query)
    elif args.format == "json":
        doc = result.to_dict(per_query=args.per_query)
        doc.update(extra)
        json.dump(doc, out, ensure_ascii=False, indent=1, allow_nan=False)
        out.write("\n")
    else:
        if heading:
            print(heading, file=out)
        print(rule, file=out)
        write_table(result, out, per_query=args.per_query)
    return 0


def write_tsv_values(result: PerQueryValues, out, measures, per_query: bool = False) -> None:
    """:func:`write_tsv` from the per-query values of file mode (every question counts:
    a qrels file marks none as "no answer"), each figure its measure's summary."""
    lines = []
    for s, system in enumerate(result.systems):
        for mi, m in enumerate(result.measures):
            if m not in measures:
                continue
            col = result.values[s, :, mi]
            if per_query:
                lines += [f"{system}\t{m}\t{q}\t{v:.4f}" for q, v in zip(result.qids, col)]
            figure = summarise(col[:, None], np.array([summary_of(m)], dtype=object), 0, 0)[0][0]
            lines.append(f"{system}\t{m}\t{ALL}\t{figure:.4f}")
    out.write("\n".join(lines) + "\n")


def write_tsv(result: EvalResult, out, per_query: bool = False) -> None:
    """run<TAB>measure<TAB>qid<TAB>value, per-query lines (if asked) before each mean;
    when the evaluation knows the pool (a campaign), three more columns: bound_low,
    bound_high, settled (1/0) — reljudge.eval.bounds; a pooled question nobody has judged
    has the value nan."""
    all_means = result.means[result.means.qtype == ALL].set_index(["system", "measure"])
    means = all_means["mean"]
    with_bounds = result.bounds is not None
    pq = result.per_query
    if with_bounds:
        pq = pq.merge(
            result.bounds[["system", "qid", "measure", "bound_low", "bound_high", "settled"]],
            on=["system", "qid", "measure"],
            how="outer",
            sort=False,
        )

    def tail(lo, hi, settled) -> str:
        return f"\t{lo:.4f}\t{hi:.4f}\t{int(bool(settled))}" if with_bounds else ""

    lines = []
    for system in result.systems:
        sys_rows = pq[pq.system == system] if per_query else None
        for m in map(str, result.measures):
            if per_query:
                rows = sys_rows[sys_rows.measure == m].sort_values("qid", kind="stable")
                if with_bounds:
                    lines += [
                        f"{system}\t{m}\t{q}\t{v:.4f}{tail(lo, hi, st)}"
                        for q, v, lo, hi, st in zip(rows.qid, rows.value, rows.bound_low, rows.bound_high, rows.settled)
                    ]
                else:
                    lines += [f"{system}\t{m}\t{q}\t{v:.4f}" for q, v in zip(rows.qid, rows.value)]
            v = means.get((system, m), math.nan)
            if with_bounds and (system, m) in all_means.index:
                row = all_means.loc[(system, m)]
                lines.append(f"{system}\t{m}\t{ALL}\t{v:.4f}{tail(row.bound_low, row.bound_high, row.settled)}")
            else:
                lines.append(f"{system}\t{m}\t{ALL}\t{v:.4f}")
    out.write("\n".join(lines) + "\n")


def _fmt_ci(mean: float, lo: float, hi: float) -> str:
    if math.isnan(mean):
        return "-"
    if math.isnan(lo):
        return f"{mean:.4f}"
    return f"{mean:.4f} [{lo:.3f}, {hi:.3f}]"


def _fmt_bounds(low: float, high: float, settled: bool, n_open: int) -> str:
    """'[low, high]' with 'settled' when they meet, else how many open paragraphs within
    the cutoff could still move it."""
    if math.isnan(low):
        return "-"
    if settled:
        return f"{low:.4f} settled"
    return f"[{low:.4f}, {high:.4f}] {int(n_open)} open"


def _fmt_p(p: float) -> str:
    # 4 decimals as the other figures; an exact p can be smaller than 0.0001 (2/2^16)
    return i18n.p_text(p, 4)


def write_table(result: EvalResult, out, per_query: bool = False) -> None:
    """A plain-text report for people: means with 95% intervals, shares, tests, policies."""
    import pandas as pd

    m = result.means[result.means.qtype == ALL]
    n = result.n_questions
    out.write(
        f"questions: {n['answerable']} evaluated"
        + (f", {n['no_answer']} no-answer (reported apart)" if n["no_answer"] else "")
        + "\n\n"
    )
    table = pd.DataFrame(index=pd.Index(result.systems, name="run"))
    for meas in map(str, result.measures):
        rows = m[m.measure == meas].set_index("system")
        table[meas] = [_fmt_ci(*rows.loc[s, ["mean", "ci_low", "ci_high"]]) for s in result.systems]
    out.write("mean [95% bootstrap interval]\n" + table.to_string() + "\n\n")
    if result.bounds is not None and "bound_low" in m:
        b = result.policies.get("bounds", {})
        size, judged = b.get("pool_size", 0), b.get("pool_judged", 0)
        bt = pd.DataFrame(index=pd.Index(result.systems, name="run"))
        for meas in map(str, result.measures):
            rows = m[m.measure == meas].set_index("system")
            bt[meas] = [
                _fmt_bounds(*rows.loc[s, ["bound_low", "bound_high", "settled", "n_open"]]) for s in result.systems
            ]
        out.write(
            f"bounds over every way the unjudged pooled paragraphs could still be graded "
            f"(pool judged: {judged}/{size}{f' = {judged / size:.0%}' if size else ''}; "
            f"{b.get('pooled_not_judged', 0)} pooled questions not judged yet count there too)\n"
            + bt.to_string()
            + "\n\n"
        )

    # nothing judged yet: no share and no test to show, only the bounds above
    judged_any = bool(n["answerable"])
    sh = result.shares[result.shares.qtype == ALL]
    if not sh.empty and judged_any:
        t = pd.DataFrame(
            {
                "run": sh.system,
                "threshold": "rel>=" + sh.rel.astype(str),
                "K": sh.k,
                "n": sh.n,
                "rank 1": sh.rank1.map("{:.1%}".format),
                "top 3": sh.top3.map("{:.1%}".format),
                "not found in K": sh.not_found.map("{:.1%}".format),
            }
        )
        out.write("first relevant result\n" + t.to_string(index=False) + "\n\n")
    if not result.tests.empty and judged_any:
        t = result.tests[result.tests.qtype == ALL]
        t = pd.DataFrame(
            {
                "measure": t.measure,
                "A": t.system_a,
                "B": t.system_b,
                "A-B": t["diff"].map("{:+.4f}".format),
                "p": t.p_value.map(_fmt_p),
                "p (Holm)": t.p_holm.map(_fmt_p),
            }
        )
        out.write(
            "paired randomization test\n"
            + t.to_string(index=False)
            + "\n"
            + i18n.test_procedure(result.policies["randomization_test"].get("used"), "en")
            + "\n\n"
        )
    if per_query:
        pq = result.per_query.pivot_table(index="qid", columns=["system", "measure"], values="value", sort=False)
        out.write("per query\n" + pq.to_string(float_format="{:.4f}".format) + "\n\n")
    p = result.policies
    out.write(
        f"ties: {p['ties']}: {p['ties_rule']}\nduplicates: {p['dedup_rule']}\n"
        f"unjudged: {p['unjudged']}; missing from a run: {p['missing_from_run']}\n"
    )
