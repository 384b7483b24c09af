"""Forms two lead pages share: planning work with overlap (judging and review
assignments) and a final grade with its reason (paragraph and review adjudication)."""

from __future__ import annotations

from typing import Callable

import streamlit as st

from reljudge import display, i18n
from reljudge.errors import ReljudgeError
from reljudge.ui import session, tables


def overlap_plan(
    people: list[str],
    people_label: str,
    preview: Callable,
    apply: Callable,
    applied: str,
    name: str,
    key: str = "assign",
) -> None:
    """People per question (or a share of questions given to two), balance by type;
    Preview shows ``preview(chosen, **options)``'s plan, Apply stores ``apply(chosen,
    **options)`` and says ``applied`` (an i18n key taking ``msg``); the loads table is
    downloadable as ``name``."""
    # Outside the form, so the share below can switch off at once: with two or more
    # people on every question, every question is doubled already.
    per_question = st.number_input(
        session.t("per_question"),
        min_value=1,
        max_value=10,
        value=1,
        key=None if key == "assign" else f"{key}_per_question",
    )
    with st.form(key):
        chosen = st.multiselect(session.t(people_label), people, default=people, format_func=display.visible)
        double_share = st.slider(
            session.t("double_share"),
            0.0,
            1.0,
            0.2,
            0.05,
            disabled=per_question > 1,
            help=session.t("double_share_off") if per_question > 1 else None,
        )
        by_type = st.checkbox(session.t("by_type"), value=True)
        show = st.form_submit_button(session.t("preview"))
        store = st.form_submit_button(session.t("apply"), type="primary")
    if show or store:
        try:
            options = dict(
                per_question=int(per_question), double_share=0.0 if per_question > 1 else double_share, by_type=by_type
            )
            if store:
                result = apply(chosen, **options)
                st.success(session.tm(applied, msg=i18n.message(result.messages(), session.lang())))
            else:
                result = preview(chosen, **options)
                st.info(display.md(i18n.message(result.messages(), session.lang())))
            tables.dataframe(result.loads, name=name)
        except ReljudgeError as exc:
            session.error(exc)


def final_grade(
    form: str, item_key: str, grade_label: Callable[[int], str], save: Callable[[int, str], None], saved_item: str
) -> None:
    """A final grade (2, 1, 0; none preselected: a hurried click must not record a grade
    nobody chose) and its reason; ``save(grade, reason)`` stores it, then the page says
    so (``saved_item`` → the grade) and reruns. Keyed by the item, so what was typed stays
    after a refused save and the next item starts empty."""
    with st.form(form):
        grade = st.radio(
            session.t("final_grade"),
            [2, 1, 0],
            horizontal=True,
            index=None,
            format_func=grade_label,
            key=f"{form}_grade_{item_key}",
        )
        reason = st.text_input(session.t("reason"), key=f"{form}_reason_{item_key}")
        if st.form_submit_button(session.t("save_adjudication"), type="primary"):
            if grade is None:
                st.error(session.t("choose_grade"))
            elif not reason.strip():
                st.error(session.t("reason_needed"))
            else:
                try:
                    save(int(grade), reason)
                    session.flash(session.tm("adjudicated", item=saved_item, ruling=grade_label(int(grade))))
                    st.rerun()
                except ReljudgeError as exc:
                    session.error(exc)


def decoy_form(db, key: str = "decoys") -> None:
    """Place decoys (attention checks) at a rate (``reljudge decoys --rate R --seed S``):
    on the Quality page and the Assignments page."""
    from reljudge.campaign import quality

    with st.form(key):
        rate = st.number_input(session.t("decoy_rate"), min_value=0.01, max_value=0.5, value=0.05, step=0.01)
        seed = st.number_input(session.t("decoy_seed"), min_value=0, value=42, step=1)
        st.caption(session.t("decoys_help"))
        if st.form_submit_button(session.t("decoys_place")):
            try:
                out = quality.place_decoys(db, float(rate), int(seed))
                session.flash(session.t("decoys_placed", placed=out["placed"], annotators=out["annotators"]))
                st.rerun()
            except ReljudgeError as exc:
                session.error(exc)


def plan_form(db) -> None:
    """The judging plan, as ``reljudge plan`` sets it: complete, rr-first (then the rest of
    the pool, or a random sample of it) or a sample alone, with the sample's rate and seed
    (docs/sampling.md). A refused choice (say, another draw once judging has begun) is
    shown and nothing changes."""
    from reljudge.campaign import plan

    chosen = plan.current(db)
    labels = {"complete": "plan_complete", "rr-first": "plan_rr_first", "sample": "plan_sample"}
    with st.form("judging_plan"):
        name = st.radio(
            session.t("plan_choice"),
            plan.PLANS,
            index=plan.PLANS.index(chosen.name),
            key="plan_name",
            format_func=lambda p: session.t(labels[p], k=chosen.k),
        )
        rest = st.checkbox(session.t("plan_rest"), value=chosen.rest, key="plan_rest")
        then_sample = st.checkbox(
            session.t("plan_then_sample"), value=chosen.name == "rr-first" and chosen.samples, key="plan_then_sample"
        )
        rate = st.number_input(
            session.t("plan_sample_rate"),
            min_value=0.01,
            max_value=1.0,
            value=float(chosen.sample_rate or 0.2),
            step=0.05,
            key="plan_sample_rate",
        )
        seed = st.number_input(
            session.t("plan_sample_seed"),
            min_value=0,
            value=int(chosen.sample_seed or plan.DEFAULT_SAMPLE_SEED),
            step=1,
            key="plan_sample_seed",
        )
        st.caption(session.t("plan_help"))
        st.caption(session.t("plan_sample_help"))
        if st.form_submit_button(session.t("plan_apply")):
            sampled = name == "sample" or (name == "rr-first" and then_sample)
            try:
                rest = rest and name == "rr-first"
                plan.set_plan(db, name, rest, sample=rate if sampled else None, seed=int(seed) if sampled else None)
            except ReljudgeError as exc:
                session.error(exc)
            else:
                st.success(session.t("plan_saved"))


def plan_estimate(db, key: str = "plan_estimate") -> None:
    """What each plan is expected to cost (reljudge.campaign.plan.estimate), on demand:
    the simulation takes a moment on a large campaign, so it runs when the lead asks."""
    import pandas as pd

    from reljudge.campaign import plan

    if not st.button(session.t("plan_estimate_button"), key=key):
        return
    result = plan.estimate(db)
    t, h = result["totals"], result["hours"]

    def count(v):
        return "—" if v is None else f"{v:,.0f}"

    def hours(v):
        return "—" if v is None else f"{v:.1f}"

    rows = [
        (session.t("plan_estimate_complete"), count(t["complete"]), hours(h["complete"])),
        (
            session.t("plan_estimate_range"),
            f"{count(t['rr_first_low'])}–{count(t['rr_first_high'])}",
            "—" if h["rr_first_low"] is None else f"{h['rr_first_low']:.1f}–{h['rr_first_high']:.1f}",
        ),
        (session.t("plan_estimate_expected"), count(t["rr_first_expected"]), hours(h["rr_first_expected"])),
    ]
    if "with_sample_low" in t:  # the chosen sampling plan: its drawn items counted (plan.estimate)
        low, high, expected = t["with_sample_low"], t["with_sample_high"], t["with_sample_expected"]
        span = count(low) if low == high else f"{count(low)}–{count(high)}"
        rows.append(
            (
                session.t("plan_estimate_sample"),
                span if expected is None else f"{span} ({count(expected)})",
                hours(h["with_sample_low"] if expected is None else h["with_sample_expected"]),
            )
        )
    tables.dataframe(pd.DataFrame(rows, columns=["estimate_plan", "judgments", "estimate_hours"]), name="plan_estimate")
    secs = result["median_seconds_per_judgment"]
    st.caption(session.t("plan_estimate_note", n=result["judged_so_far"], s="—" if secs is None else f"{secs:.1f}"))
