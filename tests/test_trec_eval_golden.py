"""`reljudge evaluate --format trec_eval` prints, byte for byte, what NIST's trec_eval printed.

The inputs in tests/data/trec_eval_golden/ were written for this test (float scores
equal in float32 but not as doubles, scientific notation, Korean / NFC-vs-NFD /
emoji docnos, negative grades, a query without relevant documents, qrels queries
missing from the run, run queries missing from the qrels, '#' comment lines).
The *.out files are the lines trec_eval printed for them, unedited:

* ``*.trec10.*``: trec_eval 10.0 ("trec_eval version 10.0-rc3" by ``-v``), built
  with ``make`` from github.com/usnistgov/trec_eval at commit
  f4253652c8efd0d86ddffd0d163cc0a0f813111a ("Updating CHANGELOG for version 10.0");
* ``*.trec9.*``: trec_eval 9.0.8 (tag v9.0.8, commit
  d95ca64e14a47d763ae349fb65e6d8cde4141dbd; ``-v`` says 9.0.7).

Each was run as ``trec_eval FLAGS MEASURES X.qrels X.run`` with the FLAGS in the
file name (``c`` = -c, ``q`` = -q, ``lN`` = -l N, ``J`` = -J, ``MN`` = -M N) and the
MEASURES of :data:`MEASURE_SETS` (for ``small`` and ``random``: ``-m runid -m num_q
-m recip_rank -m P.1,5,10 -m recall.5,100 -m ndcg_cut.5,10 -m success.1,5``); a file
``X+SET.*.out`` is ``X``'s inputs under the measure set ``SET``; ``official`` is
trec_eval without -m (its official set: runid, num_q, num_ret, num_rel, num_rel_ret,
map, gm_map, Rprec, bpref, recip_rank, iprec_at_recall_*, P_*), which reljudge prints
too when ``--format trec_eval`` has no -m.  The run is evaluated here with
``--ties`` set to the version.

``official.qrels`` / ``official.run`` (12 queries) add: grades -1, -2, -3 (unjudged
for trec_eval) and 3, a query without relevant documents, scores written as
``9.5E+1`` or ``7e-3``, ranks written ``3.0`` or ``0`` (trec_eval never reads the rank
field), tags that change on the last line (runid is the last line's), and, under -J,
queries left with no judged document (trec_eval prints ``-nan`` for iprec_at_recall
levels that round to 0 relevant documents; so does reljudge).  trec_eval 10.0 exits 4 ("result qid ... not
found in qrels") when a qrels query is missing from the run and -c is not given, so
averaging without -c is checked against trec_eval 9, which averages over the queries
both files hold.  trec_eval 10 reads a qrels comment only at column 0 (the comments
file is written so); reljudge also skips indented ones.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reljudge.cli import main as cli

DATA = Path(__file__).parent / "data" / "trec_eval_golden"
MEASURES = [
    "-m",
    "runid",
    "-m",
    "num_q",
    "-m",
    "recip_rank",
    "-m",
    "P.1,5,10",
    "-m",
    "recall.5,100",
    "-m",
    "ndcg_cut.5,10",
    "-m",
    "success.1,5",
]
MEASURE_SETS = {
    "official": [],
    "more": [
        "-m",
        "recall",
        "-m",
        "ndcg_cut",
        "-m",
        "success",
        "-m",
        "P.2,7",
        "-m",
        "iprec_at_recall.0.25,.33,0.05,0.04",
        "-m",
        "map",
        "-m",
        "Rprec",
        "-m",
        "bpref",
    ],
    "unj": ["-m", "unj.1,3,50", "-m", "num_ret"],
}
CASES = sorted(p.name for p in DATA.glob("*.out"))


def _flag(f: str) -> list[str]:
    if f in ("c", "q", "J"):
        return [f"-{f}"]
    return [f"-{f[0]}", f[1:]]  # l2 -> -l 2, M5 -> -M 5


def _argv(name: str) -> list[str]:
    base, _, rest = name[: -len(".out")].partition(".trec")
    inputs, _, mset = base.partition("+")
    version, *flags = rest.split(".")
    argv = [
        "evaluate",
        "--qrels",
        str(DATA / f"{inputs}.qrels"),
        str(DATA / f"{inputs}.run"),
        "--format",
        "trec_eval",
        "--ties",
        f"trec{version}",
    ]
    for f in flags:
        argv += _flag(f)
    return argv + MEASURE_SETS.get(mset or inputs, MEASURES)


def test_every_golden_file_is_used():
    assert len(CASES) == 24
    for name in CASES:
        argv = _argv(name)
        assert Path(argv[2]).exists() and Path(argv[3]).exists()


@pytest.mark.parametrize("name", CASES)
def test_output_equals_trec_eval(name, capsys):
    code = cli.main(_argv(name))
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out == (DATA / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("base", ["small", "random"])
def test_the_two_tie_rules_differ_on_these_inputs(base, capsys):
    """The inputs tell trec_eval 10 from 9: the versions' figures differ, and reljudge
    under the other rule does not reproduce them."""
    t10 = (DATA / f"{base}.trec10.c.q.out").read_text(encoding="utf-8")
    t9 = (DATA / f"{base}.trec9.c.q.out").read_text(encoding="utf-8")
    all10 = [line for line in t10.splitlines() if "\tall\t" in line]
    all9 = [line for line in t9.splitlines() if "\tall\t" in line]
    assert all10 != all9
    argv = _argv(f"{base}.trec10.c.q.out")
    argv[argv.index("--ties") + 1] = "trec9"
    assert cli.main(argv) == 0
    assert capsys.readouterr().out != t10


def test_official_is_the_default_of_the_trec_eval_format(capsys):
    """No -m with --format trec_eval prints trec_eval's official set, as trec_eval does
    without -m; ``-m official`` is the same."""
    argv = _argv("official.trec10.c.out")
    assert cli.main(argv) == 0
    default = capsys.readouterr().out
    assert cli.main(argv + ["-m", "official"]) == 0
    assert capsys.readouterr().out == default == (DATA / "official.trec10.c.out").read_text(encoding="utf-8")
    names = [line.split("\t")[0].strip() for line in default.splitlines()]
    assert names[:10] == [
        "runid",
        "num_q",
        "num_ret",
        "num_rel",
        "num_rel_ret",
        "map",
        "gm_map",
        "Rprec",
        "bpref",
        "recip_rank",
    ]


def test_runid_is_the_last_lines_tag():
    """trec_eval keeps the run_id of the LAST line (get_trec_results.c); the inputs'
    lines say "alpha" but the last one says "omega"."""
    lines = (DATA / "official.run").read_text(encoding="utf-8").splitlines()
    assert lines[0].endswith(" alpha") and lines[-1].endswith(" omega")
    assert (DATA / "official.trec9.out").read_text(encoding="utf-8").startswith("runid                 \tall\tomega\n")
