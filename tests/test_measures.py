import pytest

from reljudge.errors import ReljudgeError
from reljudge.eval.measures import NO_CUTOFF, trec_name, REGISTRY, Measure, parse_measure, parse_measures


@pytest.mark.parametrize(
    "text, default_rel, expected",
    [
        ("RR@10", 2, Measure("RR", 10, 2)),
        ("RR@10", 1, Measure("RR", 10, 1)),
        ("RR(rel=1)@10", 2, Measure("RR", 10, 1)),
        ("RR( rel = 2 )@5", 1, Measure("RR", 5, 2)),
        ("nDCG@10", 2, Measure("nDCG", 10, None)),
        ("R@100", 1, Measure("R", 100, 1)),
        ("P@5", 2, Measure("P", 5, 2)),
        ("Judged@10", 2, Measure("Judged", 10, None)),
        ("mrr@5", 1, Measure("RR", 5, 1)),
        ("ndcg_cut_10", 1, Measure("nDCG", 10, None)),
        ("P_5", 1, Measure("P", 5, 1)),
        ("recall_100", 1, Measure("R", 100, 1)),
    ],
)
def test_parse(text, default_rel, expected):
    assert parse_measure(text, default_rel) == expected


def test_canonical_name_spells_the_threshold():
    assert str(parse_measure("RR@10", 1)) == "RR(rel=1)@10"
    assert str(parse_measure("RR@10", 2)) == "RR(rel=2)@10"
    assert str(parse_measure("nDCG@10", 2)) == "nDCG@10"
    assert str(parse_measure("Judged@3", 2)) == "Judged@3"
    # the canonical name parses back to the same measure whatever the default
    for text in ["RR(rel=1)@10", "P(rel=2)@5", "nDCG@3", "R(rel=0)@1"]:
        m = parse_measure(text, 9)
        assert parse_measure(str(m), 5) == m and str(m) == text


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("MAPX@10", "unknown measure 'MAPX'"),
        ("MAP@10", "AP takes no cutoff"),
        ("IPrec@1.5", "recall level must be from 0 to 1"),
        ("IPrec@x", "recall level 'x' is not a number"),
        ("IPrec", "needs a recall level"),
        ("P", "needs a cutoff"),
        ("NumQ@5", "takes no cutoff"),
        ("RR@x", "not a whole number"),
        ("RR@0", "at least 1"),
        # DuckDB's top-n aggregates (max(x, n), max_by(x, k, n)) take n < 1,000,000
        ("R@1000000", "measure 'R@1000000': cutoff 1000000 is too large (at most 999999)"),
        ("nDCG@99999999999999999999", "cutoff 99999999999999999999 is too large (at most 999999)"),
        ("nDCG(rel=1)@5", "takes no rel="),
        ("RR(gain=1)@5", "unknown parameter"),
        ("RR(rel=a)@5", "not a whole number"),
        ("", "cannot read measure"),
    ],
)
def test_errors_are_clear(text, fragment):
    with pytest.raises(ReljudgeError) as e:
        parse_measure(text, 2)
    assert fragment in str(e.value)


def test_largest_cutoff_is_accepted():
    assert parse_measure("R@999999", 1) == Measure("R", 999999, 1)
    assert parse_measure("recall_999999", 1) == Measure("R", 999999, 1)


def test_unknown_measure_lists_what_exists():
    with pytest.raises(ReljudgeError) as e:
        parse_measure("MAPX@10", 2)
    for name, fam in REGISTRY.items():
        assert (name if name in NO_CUTOFF else f"{name}@x" if fam.cutoff == "recall" else f"{name}@K") in str(e.value)


@pytest.mark.parametrize(
    "text, names, trec",
    [
        ("recip_rank", ["RR(rel=1)"], ["recip_rank"]),
        ("RR", ["RR(rel=1)"], ["recip_rank"]),
        ("P.5,10", ["P(rel=1)@5", "P(rel=1)@10"], ["P_5", "P_10"]),
        ("ndcg_cut.10", ["nDCG@10"], ["ndcg_cut_10"]),
        ("recall.100", ["R(rel=1)@100"], ["recall_100"]),
        ("success.1", ["Success(rel=1)@1"], ["success_1"]),
        ("success_5", ["Success(rel=1)@5"], ["success_5"]),
        ("num_q", ["NumQ"], ["num_q"]),
        ("RR@10", ["RR(rel=1)@10"], [None]),
    ],
)
def test_trec_eval_spellings(text, names, trec):
    ms = parse_measures([text], 1)
    assert [str(m) for m in ms] == names and [trec_name(m) for m in ms] == trec


def test_parse_measures_splits_commas_and_drops_repeats():
    got = parse_measures(["RR@10,RR(rel=2)@10", "P@5", "RR(rel=1)@10"], default_rel=1)
    assert [str(m) for m in got] == ["RR(rel=1)@10", "RR(rel=2)@10", "P(rel=1)@5"]
    with pytest.raises(ReljudgeError):
        parse_measures([], default_rel=1)


@pytest.mark.parametrize(
    "text, names, trec",
    [
        ("map", ["AP(rel=1)"], ["map"]),
        ("gm_map", ["GMAP(rel=1)"], ["gm_map"]),
        ("Rprec", ["Rprec(rel=1)"], ["Rprec"]),
        ("bpref", ["Bpref(rel=1)"], ["bpref"]),
        ("num_ret", ["NumRet"], ["num_ret"]),
        ("num_rel", ["NumRel(rel=1)"], ["num_rel"]),
        ("num_rel_ret", ["NumRelRet(rel=1)"], ["num_rel_ret"]),
        (
            "iprec_at_recall.0,.5,1",
            ["IPrec(rel=1)@0.0", "IPrec(rel=1)@0.5", "IPrec(rel=1)@1.0"],
            ["iprec_at_recall_0.00", "iprec_at_recall_0.50", "iprec_at_recall_1.00"],
        ),
        ("iprec_at_recall_0.10", ["IPrec(rel=1)@0.1"], ["iprec_at_recall_0.10"]),
        ("unj.5,10", ["Unj@5", "Unj@10"], ["unj_5", "unj_10"]),
        ("AP(rel=2)", ["AP(rel=2)"], ["map"]),
    ],
)
def test_trec_eval_spellings_of_the_official_measures(text, names, trec):
    ms = parse_measures([text], 1)
    assert [str(m) for m in ms] == names and [trec_name(m) for m in ms] == trec
    # the canonical name parses back to the same measure
    assert [parse_measure(str(m), 7) for m in ms] == ms


def test_bare_trec_families_take_trec_evals_defaults():
    assert [trec_name(m) for m in parse_measures(["P"], 1)] == [
        f"P_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)
    ]
    assert len(parse_measures(["iprec_at_recall"], 1)) == 11
    official = [trec_name(m) for m in parse_measures(["official"], 1)]
    assert official[:9] == [
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
    assert len(official) == 9 + 11 + 9


def test_trec_eval_parameter_rule_first_explicit_wins():
    """trec_eval (meas_init.c): a family's parameters are those of its first -m
    family.params; a bare family or -m official then uses them."""
    from reljudge.eval.measures import parse_trec_eval_measures

    got = [trec_name(m) for m in parse_trec_eval_measures(["P.5", "P.10", "recip_rank", "P.20,3"], 1)]
    assert got == ["P_5", "recip_rank"]
    got = [trec_name(m) for m in parse_trec_eval_measures(["official", "P.7"], 1)]
    assert [g for g in got if g.startswith("P_")] == ["P_7"]


def test_every_family_is_complete_and_derived_tables_agree():
    """One entry per family carries everything; the help text and the table of docs/measures.md are
    derived from it (docs/measures.md#측정--measures holds exactly markdown_table())."""
    from pathlib import Path

    from reljudge.eval.measures import FAMILIES, TREC_NAMES, help_text, markdown_table

    for f in FAMILIES:
        assert f.description and f.definition and f.source and callable(f.sql)
        assert f.cutoff in ("required", "optional", "none", "recall") and f.summary in ("mean", "sum", "gmean")
        assert f.name in REGISTRY and f.name in help_text() and f"`{f.name}`" in markdown_table()
    assert list(TREC_NAMES)[:5] == ["num_q", "num_ret", "num_rel", "num_rel_ret", "map"]
    measures_doc = (Path(__file__).parent.parent / "docs" / "measures.md").read_text(encoding="utf-8")
    assert markdown_table() in measures_doc
