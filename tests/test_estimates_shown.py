"""The sampling estimates where the numbers are (issue 36 §2; docs/sampling.md, "Where the
estimates are shown"): the dashboard's figures ("추정" with the estimate and its judging-sample
interval, beside the bounds), its plan sentence, and the report in Korean and English — the
same estimates `reljudge evaluate --format json` prints; and nothing of it without a
sampling plan. The demo campaign, real DuckDB files."""

from __future__ import annotations

import json
import random
import re
import shutil

import pytest

from app_support import demo_app, lead_on
from reljudge.campaign import judging, plan
from reljudge.campaign import setup as campaign
from reljudge.cli import main as cli
from reljudge.reporting import dashboard, report
from reljudge.storage import open_database

K = 10
ESTIMATED = ["R@10", "nDCG@10", "P@10"]  # the dashboard's quality measures a sample estimates


def _judge(db, name: str, **kw) -> None:
    """Under plan ``name``: annotator1 judges what the plan asks for in q01-q05 (seeded
    random grades) and the whole pool of q06 (a fully judged question)."""
    rng = random.Random(4)
    plan.set_plan(db, name, **kw)
    for qid in ("q01", "q02", "q03", "q04", "q05"):
        while now := judging.plan_state(db, "annotator1", qid)["now"]:
            judging.grade(db, "annotator1", qid, now[0], rng.choice([0, 0, 1, 2]))
    for pid in judging.pool_paragraphs(db, "q06").pid:
        judging.grade(db, "annotator1", "q06", pid, rng.choice([0, 0, 1, 2]))


def _judged_template(demo_template, folder, name: str, **kw):
    """The demo judged under plan ``name`` once per module (judging it takes most of a
    test's time); each test gets its own copy of the file."""
    path = folder / "judged.duckdb"
    shutil.copy(demo_template, path)
    db = open_database(path)
    _judge(db, name, **kw)
    db.close()
    return path


@pytest.fixture(scope="module")
def sampled_template(demo_template, tmp_path_factory):
    return _judged_template(demo_template, tmp_path_factory.mktemp("sampled"), "rr-first", sample=0.3, seed=2)


@pytest.fixture(scope="module")
def plain_template(demo_template, tmp_path_factory):
    return _judged_template(demo_template, tmp_path_factory.mktemp("plain"), "rr-first")


def _copy_of(template, tmp_path, name: str):
    path = tmp_path / f"{name}.duckdb"  # a test may take both copies: never one path
    shutil.copy(template, path)
    db = open_database(path)
    return str(path), db


@pytest.fixture
def sampled(sampled_template, tmp_path):
    """The demo judged under rr-first --then-sample 0.3 (seed 2): (path, Database)."""
    path, db = _copy_of(sampled_template, tmp_path, "sampled")
    yield path, db
    db.close()


@pytest.fixture
def plain(plain_template, tmp_path):
    """The same campaign judged under rr-first alone (no sample)."""
    path, db = _copy_of(plain_template, tmp_path, "plain")
    yield path, db
    db.close()


def _ev(db):
    return dashboard.evaluate_for_dashboard(db, K, 2, n_boot=0, n_perm=0)


def _evaluate_json(path, capsys) -> dict:
    code = cli.main(["--db", path, "evaluate", "--format", "json", "-m", "RR@10", "R@10", "nDCG@10", "P@10"])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


# -- the dashboard, in the library -----------------------------------------------------


def test_every_measure_the_sample_decides_is_estimated_with_evaluates_numbers(sampled, capsys):
    path, db = sampled
    status = dashboard.measure_status(_ev(db), K)
    assert list(status.columns) == dashboard.STATUS_COLUMNS + dashboard.ESTIMATE_STATUS_COLUMNS
    overall = status[status.qtype == "all"]
    # MRR is never estimated (docs/sampling.md): no estimate, never "추정"
    mrr = overall[overall.measure == "MRR@10"]
    assert mrr.estimate.isna().all() and not mrr.estimated.any()
    rows = overall[overall.measure.isin(ESTIMATED)]
    assert len(rows) == 3 * 4 and rows.estimated.all() and not rows.settled.any()
    for r in rows.itertuples():
        assert r.bound_low - 1e-9 <= r.estimate_low <= r.estimate <= r.estimate_high <= r.bound_high + 1e-9
    assert (rows.estimate_high - rows.estimate_low).max() > 0.01
    # one source: the very numbers `reljudge evaluate --format json` prints
    doc = _evaluate_json(path, capsys)
    shown = {"R(rel=2)@10": "R@10", "nDCG@10": "nDCG@10", "P(rel=2)@10": "P@10"}
    by = rows.set_index(["system", "measure"])
    checked = 0
    for m in doc["means"]:
        if m["qtype"] == "all" and m["measure"] in shown:
            row = by.loc[(m["system"], shown[m["measure"]])]
            for c in ("estimate", "estimate_low", "estimate_high"):
                assert row[c] == pytest.approx(m[c], abs=1e-12)
            assert row.value == pytest.approx(m["mean"], abs=1e-12)
            checked += 1
    assert checked == len(rows)


def test_a_settled_figure_stays_settled_under_a_sampling_plan(sampled):
    """A figure whose bounds meet is "확정" even where the sample has an estimate for it."""
    _, db = sampled
    status = dashboard.measure_status(_ev(db), K)
    assert not (status.settled & status.estimated).any()
    assert (status.estimated <= status.estimate.notna()).all()  # estimated only with an estimate


def test_the_plan_sentence_data_names_what_the_sample_estimates(sampled):
    _, db = sampled
    ev = _ev(db)
    s = dashboard.plan_summary(db, ev, K)
    assert s["settles"] == ["MRR@10"] and s["estimates"] == ESTIMATED
    assert (s["sample_rate"], s["sample_seed"]) == (0.3, 2)
    assert s["estimated_now"] == {name: [4, 4] for name in ESTIMATED}
    plan.set_plan(db, "sample", sample=0.3, seed=2)
    s = dashboard.plan_summary(db, ev, K)
    assert s["settles"] == [] and s["estimates"] == ESTIMATED  # a sample settles nothing


def test_a_frozen_version_under_a_sampling_plan_promises_no_estimate(sampled, monkeypatch):
    """A frozen qrels version carries no estimate (docs/sampling.md): the plan sentence says
    so instead of "estimates R@10, …" beside figures that have none (a bug until 2026-12-07)."""
    from reljudge.campaign import adjudication
    from reljudge.ui import dashboard_view, session

    _, db = sampled
    version = adjudication.freeze(db, "lead")
    ev = dashboard.evaluate_for_dashboard(db, K, 2, version=version, n_boot=0, n_perm=0)
    assert "estimate" not in ev.result.means.columns  # the figures: no estimate
    s = dashboard.plan_summary(db, ev, K)
    assert s["estimates"] == [] and "estimated_now" not in s
    assert (s["no_estimates_reason"], s["version"]) == ("frozen_version", version)
    monkeypatch.setattr(session, "lang", lambda: "ko")
    text = re.sub(r"\\(.)", r"\1", dashboard_view.plan_sentence(s))
    assert "추정합니다" not in text
    assert f"고정된 판정 버전 {version}을(를) 보고 있어 표본 추정은 없습니다" in text
    # the live evaluation beside it still estimates
    assert dashboard.plan_summary(db, _ev(db), K)["estimates"] == ESTIMATED


def test_the_report_table_gives_each_estimate_with_its_interval(sampled):
    _, db = sampled
    ev = _ev(db)
    table = dashboard.summary_table(ev, K)
    assert [c for c in table.columns if c.endswith(" estimate")] == [f"{m} estimate" for m in ESTIMATED]
    status = dashboard.measure_status(ev, K).set_index(["system", "qtype", "measure"])
    for row in table.itertuples(index=False):
        for m in ESTIMATED:
            s = status.loc[(row.system, row.qtype, m)]
            cell = dict(zip(table.columns, row))[f"{m} estimate"]
            expected = (
                "—" if s.estimate != s.estimate else f"{s.estimate:.3f} [{s.estimate_low:.3f}, {s.estimate_high:.3f}]"
            )
            assert cell == expected


def test_without_a_sampling_plan_nothing_is_estimated(plain):
    _, db = plain
    ev = _ev(db)
    assert "estimate" not in ev.result.means.columns
    status = dashboard.measure_status(ev, K)
    assert list(status.columns) == dashboard.STATUS_COLUMNS
    assert dashboard.plan_summary(db, ev, K)["estimates"] == []
    assert "sample_rate" not in dashboard.plan_summary(db, ev, K)
    assert not [c for c in dashboard.summary_table(ev, K).columns if c.endswith(" estimate")]


# -- the report ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "lang, heading, column, note",
    [
        ("ko", "표본 추정", "R@10 추정 [판정 표본 95% 구간]", "추정된 값: R\\@10, nDCG\\@10, P\\@10."),
        (
            "en",
            "Sampling estimates",
            "R@10 estimate [95% judging-sample interval]",
            "Estimated: R\\@10, nDCG\\@10, P\\@10.",
        ),
    ],
)
def test_the_report_states_the_design_and_the_estimates(sampled, lang, heading, column, note):
    _, db = sampled
    data = report.build(db, lang=lang, n_boot=0)
    md = report.render(data, "md")
    design = next(line for line in md.splitlines() if line.startswith(f"| {heading} |"))
    d = report.sampling_design(db, _ev(db))
    assert (d["rate"], d["seed"], d["questions"]) == (0.3, 2, 24)
    assert d["drawn"] == sum(1 for dr in plan.draws_of(db) for x in dr.items if x.drawn) and 0 < d["drawn_judged"]
    assert d["drawn_judged"] <= d["drawn"] < d["pooled"]
    for needle in ("0.3", f"{d['drawn']}", f"{d['pooled']}", f"{d['drawn_judged']}", "nDCG\\@10", "docs/sampling.md"):
        assert needle in design, needle
    assert ("시드 2" if lang == "ko" else "seed 2") in design
    assert ("층" if lang == "ko" else "strata") in design
    assert dashboard.pool_judged(_ev(db))["share"] in design
    # the results: the estimate column beside the bounds, its cells the estimates
    header = next(line for line in md.splitlines() if column in line)
    cols = [c.strip() for c in header.strip("|").split("|")]
    assert (
        cols.index(column)
        == cols.index(column.split(" ")[0] + (" 범위(미판정 반영)" if lang == "ko" else " bounds")) + 1
    )
    status = dashboard.measure_status(_ev(db), K).set_index(["system", "qtype", "measure"])
    est = status.loc[("bm25", "all", "R@10")]
    assert f"{est.estimate:.3f} [{est.estimate_low:.3f}, {est.estimate_high:.3f}]" in md
    assert f"> {note}" in md
    html = report.render(data, "html")
    assert heading in html and column in html
    assert f"{est.estimate:.3f} [{est.estimate_low:.3f}, {est.estimate_high:.3f}]" in html


def test_the_report_says_nothing_of_estimates_without_a_sampling_plan(plain):
    _, db = plain
    for lang, words in (
        ("ko", ("표본 추정", "추정된 값", "판정 표본")),
        ("en", ("Sampling estimates", "estimate", "judging-sample")),
    ):
        data = report.build(db, lang=lang, n_boot=0)
        assert data.estimates_note == ""
        for text in (report.render(data, "md"), report.render(data, "html")):
            for w in words:
                assert w not in text, (lang, w)
    assert report.sampling_design(db, _ev(db)) is None


# -- the dashboard page ------------------------------------------------------------------


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    root = tmp_path_factory.mktemp("estimates_page")
    _, db = demo_app(root / "app.duckdb", mp)
    _judge(db, "rr-first", sample=0.3, seed=2)
    at = lead_on("screens/dashboard.py")
    yield {"at": at, "db": db}
    mp.undo()


def _glance(at):
    return next(d.value for d in at.dataframe if any(" · " in str(v) for v in d.value.iloc[:, -1]))


def test_the_dashboard_page_shows_estimated_cells_apart_from_settled_and_provisional(page):
    at, db = page["at"], page["db"]
    assert not at.exception and not at.error
    table = _glance(at)
    overall = table[table.qtype == "전체"].set_index("system")
    status = dashboard.measure_status(_ev(db), K)
    by = status[status.qtype == "all"].set_index(["system", "measure"])
    for system, row in overall.iterrows():
        for m in ESTIMATED:
            s = by.loc[(system, m)]
            assert row[m] == (
                f"{s.value:.3f} · 추정 {s.estimate:.3f} [{s.estimate_low:.3f}, {s.estimate_high:.3f}]"
                f" · 범위 [{s.bound_low:.3f}, {s.bound_high:.3f}]"
            )
            assert "잠정" not in row[m] and "확정" not in row[m]
        # MRR: not estimated, settled or provisional as without a sample
        assert "추정" not in row["MRR@10"] and re.search(r" · (확정|잠정)", row["MRR@10"])
    captions = [c.value for c in at.caption]
    assert any(c.startswith("'추정 값 [낮은 끝, 높은 끝]'") for c in captions)
    # the bootstrap interval stays under its own heading
    assert "문항 표본: 95% 부트스트랩 구간" in [s.value for s in at.subheader]


def test_the_dashboard_plan_sentence_says_what_the_plan_estimates(page):
    at = page["at"]
    source = next(m.value for m in at.markdown if m.value.startswith("판정 계획 **첫 근거 우선 + 표본**"))
    text = re.sub(r"\\(.)", r"\1", source)
    assert "MRR@10을(를) 확정합니다" in text
    assert (
        "R@10, nDCG@10, P@10은(는) 표본(비율 0.3, 시드 2)으로 추정합니다 (지금 R@10: 시스템 4개 중 4개 추정)." in text
    )


def test_the_dashboard_page_in_english(page):
    from streamlit.testing.v1 import AppTest

    from reljudge.ui import webapp

    db = page["db"]
    # a new browser session in English from its first run (the widgets' labels follow the language)
    at = AppTest.from_file(str(webapp.SCRIPT), default_timeout=60)
    at.session_state["lang_en"] = True
    at.run()
    at.text_input(key="login_username").input("lead")
    at.text_input(key="login_password").input("demo-lead")
    at.button[0].click().run()
    at.switch_page("screens/dashboard.py").run()
    assert not at.exception and not at.error
    table = _glance(at)
    status = dashboard.measure_status(_ev(db), K)
    s = status[(status.qtype == "all") & (status.measure == "nDCG@10")].set_index("system").loc["bm25"]
    cell = table[(table.system == "bm25") & (table.qtype == "all")]["nDCG@10"].iloc[0]
    assert cell == (
        f"{s.value:.3f} · estimated {s.estimate:.3f} [{s.estimate_low:.3f}, {s.estimate_high:.3f}]"
        f" · bounds [{s.bound_low:.3f}, {s.bound_high:.3f}]"
    )
    text = re.sub(r"\\(.)", r"\1", next(m.value for m in at.markdown if m.value.startswith("Judging plan **rr-first")))
    assert (
        "it estimates R@10, nDCG@10, P@10 from its sample (rate 0.3, seed 2; now R@10: 4 of 4 systems estimated)."
        in text
    )
    assert any(c.value.startswith("'Estimated value [low, high]'") for c in at.caption)
    assert not at.warning


def test_the_dashboard_page_names_the_questions_whose_pool_was_rebuilt_after_the_draw(page):
    """Last in the module: it rebuilds the pool (judging has begun: the draw stays)."""
    db = page["db"]
    campaign.pool(db, int(campaign.catalog.get_settings(db)["pool_depth"]) - 5)
    at = lead_on("screens/dashboard.py")
    assert not at.exception and not at.error
    stale = dashboard.stale_draws(_ev(db))
    assert stale
    assert any(", ".join(stale) in w.value and "추정하지 않습니다" in w.value for w in at.warning)


def test_questions_whose_pool_was_rebuilt_after_the_draw_are_named(sampled, plain):
    _, db = sampled
    assert dashboard.stale_draws(_ev(db)) == []
    depth = int(campaign.catalog.get_settings(db)["pool_depth"])
    campaign.pool(db, depth - 5)  # judging has begun: the draw stays as it was made
    ev = _ev(db)
    stale = dashboard.stale_draws(ev)
    assert "q01" in stale
    for lang, words in (
        ("ko", "뽑은 뒤 풀을 다시 만든 질문은 추정하지 않음"),
        ("en", "rebuilt after the draw get no estimate"),
    ):
        setup = report.build(db, lang=lang, n_boot=0).setup
        design = next((text for _, text in setup if words in text), "")
        assert ", ".join(stale) in design
    assert dashboard.stale_draws(_ev(plain[1])) == []
