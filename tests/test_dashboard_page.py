"""The dashboard page a lead reads at a glance (issue 35.5, and the list of 35.4), through
Streamlit's AppTest on a new demo campaign judged to the end under rr-first."""

from __future__ import annotations

import json
import re

import pytest

from app_support import demo_app, lead_on
from reljudge.campaign import evaluation, judging, plan
from reljudge.campaign import setup as campaign
from reljudge.reporting import dashboard
from reljudge.storage import open_database

SYSTEMS = {"bm25", "vector", "hybrid", "graphrag"}
ZERO = "q05"  # judged to the plan's end with nothing citable, not marked


def _judge_to_the_end(db) -> list[tuple[str, str, int]]:
    """annotator1 judges everything rr-first asks for: the first paragraph offered in a
    question is citable (2), every other 0, every one 0 in ZERO. Returns the grades given."""
    plan.set_plan(db, "rr-first")
    given: list[tuple[str, str, int]] = []
    seen: set[str] = set()
    while items := judging.next_items(db, "annotator1"):
        for item in items:
            qid, pid = item["qid"], item["pid"]
            grade = 2 if qid not in seen and qid != ZERO else 0
            seen.add(qid)
            judging.grade(db, "annotator1", qid, pid, grade)
            given.append((qid, pid, grade))
    return given


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    """The lead's dashboard on the demo judged to the end, and what the test compares with."""
    mp = pytest.MonkeyPatch()
    root = tmp_path_factory.mktemp("dashboard")
    _, db = demo_app(root / "app.duckdb", mp)
    given = _judge_to_the_end(db)
    at = lead_on("screens/dashboard.py")
    k = max(evaluation.settings_ks(db))
    yield {"at": at, "db": db, "given": given, "k": k, "root": root}
    mp.undo()


def _glance(at):
    return next(d.value for d in at.dataframe if any(" · " in str(v) for v in d.value.iloc[:, -1]))


def test_a_settled_mrr_reads_settled_the_open_measures_provisional(judged):
    at, k = judged["at"], judged["k"]
    assert not at.exception and not at.error
    assert "지표: 값과 범위 (확정 · 잠정)" in [s.value for s in at.subheader]
    table = _glance(at)
    overall = table[table.qtype == "전체"].set_index("system")
    assert set(overall.index) == SYSTEMS
    # every question finished under rr-first: every MRR exactly settled, no bounds beside it
    assert overall[f"MRR@{k}"].str.fullmatch(r"\d\.\d{3} · 확정").all()
    # nDCG counts paragraphs the plan leaves open: provisional, with its bounds
    assert overall[f"nDCG@{k}"].str.contains(" · 잠정 [", regex=False).all()
    # the judged-share flag is gone: no column says "provisional" for the whole row
    assert "provisional" not in table.columns
    # the bootstrap interval has its own heading, the question sample
    assert "문항 표본: 95% 부트스트랩 구간" in [s.value for s in at.subheader]
    sample = next(d.value for d in at.dataframe if f"MRR@{k} 95% CI" in d.value.columns)
    assert set(sample.system) == SYSTEMS


def test_the_plan_sentence_says_what_it_settles_and_what_the_rest_needs(judged):
    at, db, k = judged["at"], judged["db"], judged["k"]
    est = plan.estimate(db)
    complete, expected = round(est["totals"]["complete"]), round(est["totals"]["rr_first_expected"])
    source = next(m.value for m in at.markdown if m.value.startswith("판정 계획 **첫 근거 우선**"))
    text = re.sub(r"\\(.)", r"\1", source)  # as Markdown shows it: the data's escapes ("MRR\@10") read plain
    assert f"(K = {k}, 등급 ≥ 2):" in text
    assert f"MRR@{k}을(를) 확정합니다 (지금 MRR@{k}: 시스템 4개 중 4개 확정)." in text
    assert f"R@{k}, nDCG@{k}, P@{k}은(는) 열어 둡니다" in text
    assert f"판정 {complete:,}건이 필요합니다 — 이 계획의 약 {expected:,}건보다 {complete - expected:,}건 더" in text
    assert f"지금까지 {len(judged['given']):,}건" in text


def test_the_chart_shows_each_systems_mrr_with_its_bounds(judged):
    at, db, k = judged["at"], judged["db"], judged["k"]
    charts = at.get("arrow_vega_lite_chart") or at.get("vega_lite_chart")
    specs = [json.loads(c.proto.spec) for c in charts]
    spec = next(s for s in specs if "bound_low" in json.dumps(s))
    text = json.dumps(spec, ensure_ascii=False)
    assert '"bound_high"' in text and f"MRR@{k}" in text
    assert spec["facet"]["column"]["field"] == "qtype" and spec["facet"]["column"]["sort"][0] == "전체"
    rows = [row for data in spec.get("datasets", {}).values() for row in data]
    if not rows:  # Streamlit sends the chart's data beside the spec, as Arrow
        import pyarrow as pa

        chart = next(c for c in charts if "bound_low" in c.proto.spec)
        for ds in chart.proto.datasets:
            rows += pa.ipc.open_stream(ds.data.data).read_all().to_pylist()
    overall = {r["system"]: r for r in rows if r["qtype"] == "전체"}
    assert set(overall) == SYSTEMS
    ev = dashboard.evaluate_for_dashboard(db, k, 2, n_boot=0, n_perm=0)
    for system, row in overall.items():
        low, high = ev.result.means.set_index(["system", "qtype", "measure"]).loc[
            (system, "all", f"RR(rel=2)@{k}"), ["bound_low", "bound_high"]
        ]
        assert row["bound_low"] == pytest.approx(low) and row["bound_high"] == pytest.approx(high)
        assert row["state"] == "확정"
    assert {r["qtype"] for r in rows} > {"전체"}  # per question type too


def test_nothing_citable_is_listed_with_what_marking_it_does(judged):
    """ZERO is listed with each system's MRR now and if marked; the latter is what the
    evaluation gives on a copy of the campaign, judged the same, where it is marked."""
    at, k = judged["at"], judged["k"]
    assert "인용할 근거가 없는데 '근거 없음'으로 표시되지 않은 질문" in [s.value for s in at.subheader]
    listed = next(d.value for d in at.dataframe if "mrr_if_marked" in d.value.columns)
    assert set(listed.qid) == {ZERO} and set(listed.system) == SYSTEMS
    by = listed.set_index("system")
    # "now" is the value of the first table
    glance = _glance(at)
    for system, cell in glance[glance.qtype == "전체"].set_index("system")[f"MRR@{k}"].items():
        assert cell.startswith(f"{by.loc[system, 'mrr_now']:.3f} ")
    copy = open_database(judged["root"] / "copy.duckdb")
    try:
        campaign.load_demo(copy)
        plan.set_plan(copy, "rr-first")
        for qid, pid, grade in judged["given"]:
            judging.grade(copy, "annotator1", qid, pid, grade)
        judging.mark_no_answer(copy, "annotator1", ZERO, True)
        marked = dashboard.evaluate_for_dashboard(copy, k, 2, n_boot=0, n_perm=0)
        for system in SYSTEMS:
            assert marked.result.mean(system, f"RR(rel=2)@{k}") == pytest.approx(by.loc[system, "mrr_if_marked"])
            assert by.loc[system, "mrr_if_marked"] > by.loc[system, "mrr_now"]
        assert dashboard.nothing_citable(copy, marked, k).empty
    finally:
        copy.close()
