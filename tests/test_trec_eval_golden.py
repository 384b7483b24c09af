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

Each was run as ``trec_eval FLAGS -m runid -m num_q -m recip_rank -m P.1,5,10
-m recall.5,100 -m ndcg_cut.5,10 -m success.1,5 X.qrels X.run`` with the FLAGS in
the file name (``c`` = -c, ``q`` = -q, ``l2`` = -l 2); the run is evaluated here
with ``--ties`` set to the version.  trec_eval 10.0 exits 4 ("result qid ... not
found in qrels") when a qrels query is missing from the run and -c is not given, so
averaging without -c is checked against trec_eval 9, which averages over the queries
both files hold.  trec_eval 10 reads a qrels comment only at column 0 (the comments
file is written so); reljudge also skips indented ones.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reljudge import cli

DATA = Path(__file__).parent / "data" / "trec_eval_golden"
MEASURES = ["-m", "runid", "-m", "num_q", "-m", "recip_rank", "-m", "P.1,5,10", "-m", "recall.5,100",
            "-m", "ndcg_cut.5,10", "-m", "success.1,5"]
FLAGS = {"c": ["-c"], "q": ["-q"], "l2": ["-l", "2"]}
CASES = sorted(p.name for p in DATA.glob("*.out"))


def _argv(name: str) -> list[str]:
    base, _, rest = name[: -len(".out")].partition(".trec")
    version, *flags = rest.split(".")
    argv = ["evaluate", "--qrels", str(DATA / f"{base}.qrels"), str(DATA / f"{base}.run"),
            "--format", "trec_eval", "--ties", f"trec{version}"]
    for f in flags:
        argv += FLAGS[f]
    return argv + MEASURES


def test_every_golden_file_is_used():
    assert len(CASES) == 8
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
