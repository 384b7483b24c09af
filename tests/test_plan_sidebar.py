"""The judging page's question list speaks the plan (issue 35.3): under rr-first each
question's label counts what is left to judge now, as the header, the Progress page and
``reljudge next`` do, and a done question shows no count (its pool's judged/size would read
as unfinished work). Streamlit's AppTest on a real DuckDB file."""

from __future__ import annotations

from app_support import demo_app
from reljudge.campaign import judging
from reljudge.campaign import plan


def _login(at, username: str, password: str):
    at.text_input(key="login_username").input(username)
    at.text_input(key="login_password").input(password)
    at.button[0].click().run()
    return at


def test_question_list_counts_the_plan_under_rr_first(tmp_path, monkeypatch):
    at, db = demo_app(tmp_path / "app.duckdb", monkeypatch)
    plan.set_plan(db, "rr-first")
    at = _login(at, "annotator1", "demo-pass1")
    assert not at.exception
    ov = judging.overview(db, "annotator1").set_index("qid")
    current = judging.current_question(db, "annotator1")
    other = next(q for q in ov.index if q != current and ov.loc[q, "pool_size"] > 0)
    qtype = ov.loc[other, "qtype"]
    picker = at.sidebar.selectbox[0]
    left = int(ov.loc[other, "open_now"])
    assert 0 < left < int(ov.loc[other, "pool_size"])
    assert picker.format_func(other) == f"○ {other} · {qtype} · 남은 판정 {left}"
    # the plan's items judged (nothing relevant: every ranking walked to K): done, no count
    for _ in range(50):
        items = [i for i in judging.next_items(db, "annotator1") if i["qid"] == other]
        if not items:
            break
        judging.grade(db, "annotator1", other, items[0]["pid"], 0)
    at.run()
    ov = judging.overview(db, "annotator1").set_index("qid")
    assert ov.loc[other, "judged"] < ov.loc[other, "pool_size"]  # done before the whole pool
    assert at.sidebar.selectbox[0].format_func(other) == f"● {other} · {qtype}"
