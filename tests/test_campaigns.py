"""Several campaigns in one database (issue 26, docs/team-server.md#여러-캠페인--several-campaigns):
each campaign a schema, on the DuckDB file and on PostgreSQL; accounts shared, roles and
assignments per campaign. A property test (hypothesis, stateful) runs random operations
on two campaigns of one database and checks that each keeps its own numbers, pool, roles
and assignments, against a model of what each should hold."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from hypothesis_profiles import examples

from conftest import load_small_campaign
from reljudge.campaign import auth, judging
from reljudge.campaign import setup as campaign
from reljudge.cli.main import main
from reljudge.errors import ReljudgeError
from reljudge.storage import accounts, campaigns, open_database, team
from reljudge.storage.db import CAMPAIGN_ENV_VAR
from reljudge.storage.migrations import MIGRATIONS


def test_campaigns_are_created_listed_and_checked(db_target, db):
    assert db.campaign == "default" and db.campaign_names() == ["default"]
    applied = campaigns.create(db_target, "round2")
    assert applied[-1] == MIGRATIONS[-1][1] and len(applied) == len(db.applied_migrations())
    assert db.campaign_names() == ["default", "round2"]
    with pytest.raises(ReljudgeError, match="exists already"):
        campaigns.create(db_target, "round2")
    with pytest.raises(ReljudgeError, match="exists already"):
        campaigns.create(db_target, "default")
    with pytest.raises(ReljudgeError, match="no campaign 'nope'.*default, round2"):
        open_database(db_target, campaign="nope")
    for bad in ("Round2", "2nd", "a-b", "x" * 42, "a;drop"):
        with pytest.raises(ReljudgeError, match="invalid campaign name"):
            open_database(db_target, campaign=bad)
    listed = campaigns.listing(db)
    assert [r["campaign"] for r in listed] == ["default", "round2"]
    assert all(r["questions"] == 0 for r in listed)


def test_two_campaigns_keep_numbers_pools_roles_and_assignments_apart(db_target, db, files):
    load_small_campaign(db, files)  # ann, bob annotate, lee leads
    campaigns.create(db_target, "second")
    two = open_database(db_target, campaign="second")
    try:
        # the same account names exist, but nobody has a role in the new campaign yet
        assert accounts.list_users(two).empty
        with pytest.raises(ReljudgeError, match="exists in another campaign"):
            auth.add_user(two, "ann", "password-ann2", "lead")
        accounts.grant_role(two, "ann", "lead")  # an annotator of one, a lead of the other
        accounts.grant_role(two, "lee", "annotator")
        auth.add_user(two, "new", "password-new", "annotator")
        campaign.import_file(two, "corpus", files["corpus"])
        campaign.import_file(two, "questions", files["questions"])
        campaign.import_file(two, "run", files["run_a"])
        campaign.pool(two, 10)

        roles_one = dict(accounts.list_users(db)[["username", "role"]].itertuples(index=False))
        roles_two = dict(accounts.list_users(two)[["username", "role"]].itertuples(index=False))
        # "new" was made in the second campaign: it has no role in the default one
        assert roles_one == {"ann": "annotator", "bob": "annotator", "lee": "lead"}
        assert roles_two == {"ann": "lead", "lee": "annotator", "new": "annotator"}
        assert accounts.roles_by_campaign(db, "ann") == {"default": "annotator", "second": "lead"}
        # one password for both: the account is shared
        assert auth.login(two, "ann", "password-ann").user == auth.User("ann", "lead")
        assert auth.login(db, "ann", "password-ann").user == auth.User("ann", "annotator")
        assert auth.login(db, "new", "password-new").user == auth.User("new", None)
        assert accounts.roles_by_campaign(db, "new") == {"second": "annotator"}

        # each campaign numbers its own rows from its own sequences
        seqs = "SELECT qid, seq FROM questions ORDER BY seq"
        assert db.cursor().execute(seqs).fetchall() == two.cursor().execute(seqs).fetchall()
        pool_one = db.cursor().execute("SELECT qid, pid FROM pool ORDER BY ALL").fetchall()
        pool_two = two.cursor().execute("SELECT qid, pid FROM pool ORDER BY ALL").fetchall()
        assert len(pool_two) < len(pool_one) and set(pool_two) < set(pool_one)
        only_one = next(item for item in pool_one if item not in pool_two)

        team.replace_assignments(db, pd.DataFrame({"qid": [only_one[0]], "username": ["bob"]}), "lee")
        team.replace_assignments(two, pd.DataFrame({"qid": [pool_two[0][0]], "username": ["lee"]}), "ann")
        assert list(team.active_assignments(db).username) == ["bob"]
        assert list(team.active_assignments(two).username) == ["lee"]

        judging.grade(db, "bob", only_one[0], only_one[1], 2)
        judging.grade(two, "lee", pool_two[0][0], pool_two[0][1], 1)
        # lee leads the default campaign but annotates this one: only the assigned question
        with pytest.raises(ReljudgeError):
            judging.grade(two, "lee", only_one[0], only_one[1], 1)
        n = "SELECT username, qid, pid, grade FROM current_judgments ORDER BY ALL"
        assert db.cursor().execute(n).fetchall() == [("bob", only_one[0], only_one[1], 2)]
        assert two.cursor().execute(n).fetchall() == [("lee", pool_two[0][0], pool_two[0][1], 1)]
        listed = {r["campaign"]: r for r in campaigns.listing(db)}
        assert listed["default"]["pool"] == len(pool_one) and listed["second"]["pool"] == len(pool_two)
        assert listed["default"]["judgment_events"] == listed["second"]["judgment_events"] == 1
    finally:
        two.close()
    # everything is still there when the database is opened again
    again = open_database(db_target, campaign="second", must_exist=True)
    try:
        assert again.cursor().execute("SELECT count(*) FROM judgment_events").fetchone()[0] == 1
        assert dict(accounts.list_users(again)[["username", "role"]].itertuples(index=False))["ann"] == "lead"
    finally:
        again.close()


def test_an_account_made_in_another_campaign_has_no_role_in_the_default_one(db_target, db, files):
    """Regression: an account first made in another campaign got ``annotator`` in the
    default campaign (``users.role`` cannot be empty), and with no assignments there it
    saw and judged the default campaign's whole queue."""
    load_small_campaign(db, files)
    qid, pid = db.cursor().execute("SELECT qid, pid FROM pool ORDER BY ALL LIMIT 1").fetchone()
    campaigns.create(db_target, "second")
    two = open_database(db_target, campaign="second")
    try:
        auth.add_user(two, "outsider", "password-out", "annotator")
        token = auth.start_session(db, auth.login(db, "outsider", "password-out").user)
    finally:
        two.close()
    assert "outsider" not in set(accounts.list_users(db).username)
    assert "outsider" not in team.active_annotators(db)
    assert auth.user_for_token(db, token) is None  # no role here: the pages and the save route refuse
    assert auth.account_for_token(db, token) == "outsider"  # but logged in: sent to "second"
    with pytest.raises(ReljudgeError, match="outsider"):
        judging.next_items(db, "outsider")
    assert db.cursor().execute("SELECT count(*) FROM judgment_events").fetchone()[0] == 0
    # the same name cannot be made again here: it is one account, given a role by grant
    with pytest.raises(ReljudgeError, match="exists in another campaign"):
        auth.add_user(db, "outsider", "password-x1", "annotator")
    auth.grant_role(db, "outsider", "annotator")
    assert accounts.roles_by_campaign(db, "outsider") == {"default": "annotator", "second": "annotator"}
    judging.grade(db, "outsider", qid, pid, 2)
    # passwords, deactivation and locks act on the account from the default campaign
    auth.revoke_role(db, "outsider")
    auth.set_password(db, "outsider", "password-new-1", "lee")
    assert auth.login(db, "outsider", "password-new-1").user == auth.User("outsider", None)
    auth.set_active(db, "outsider", False)
    assert accounts.roles_by_campaign(db, "outsider") == {}


def test_a_role_is_taken_back_in_one_campaign_only(db_target, db, files, capsys):
    load_small_campaign(db, files)  # ann, bob annotate, lee leads
    campaigns.create(db_target, "second")
    target = str(db_target)
    db.close()
    assert main(["--db", target, "--campaign", "second", "users", "grant", "ann", "--role", "lead"]) == 0
    assert main(["--db", target, "users", "revoke", "ann"]) == 0
    assert "no role in campaign default" in capsys.readouterr().out
    assert main(["--db", target, "users", "revoke", "ann"]) == 2
    assert "has no role in campaign default" in capsys.readouterr().err
    assert main(["--db", target, "users", "revoke", "nobody"]) == 2
    assert "no account 'nobody'" in capsys.readouterr().err
    again = open_database(db_target)
    try:
        assert accounts.roles_by_campaign(again, "ann") == {"second": "lead"}
        assert set(accounts.list_users(again).username) == {"bob", "lee"}
        assert auth.login(again, "ann", "password-ann").user == auth.User("ann", None)
    finally:
        again.close()
    assert main(["--db", target, "--campaign", "second", "users", "revoke", "ann"]) == 0
    again = open_database(db_target)
    try:
        assert accounts.roles_by_campaign(again, "ann") == {}
        assert accounts.account_exists(again, "ann")  # the account stays
    finally:
        again.close()


def test_cli_campaigns_and_the_global_option(db_target, capsys, monkeypatch, files):
    target = str(db_target)
    assert main(["--db", target, "init"]) == 0
    assert main(["--db", target, "campaigns", "create", "spring"]) == 0
    assert main(["--db", target, "campaigns", "create", "spring"]) == 2
    assert "exists already" in capsys.readouterr().err
    assert main(["--db", target, "--campaign", "spring", "import", "questions", str(files["questions"])]) == 0
    capsys.readouterr()
    assert main(["--db", target, "campaigns", "list", "--format", "json"]) == 0
    listed = {r["campaign"]: r for r in json.loads(capsys.readouterr().out)}
    assert listed["default"]["questions"] == 0 and listed["spring"]["questions"] > 0
    assert main(["--db", target, "campaigns", "list"]) == 0
    out = capsys.readouterr().out
    assert "default" in out and "spring" in out
    monkeypatch.setenv(CAMPAIGN_ENV_VAR, "spring")
    assert main(["--db", target, "types", "list"]) == 0  # the environment chooses the campaign
    monkeypatch.setenv(CAMPAIGN_ENV_VAR, "autumn")
    assert main(["--db", target, "types", "list"]) == 2
    assert "no campaign 'autumn'" in capsys.readouterr().err
    assert main(["--db", target, "--campaign", "Bad", "types", "list"]) == 2
    err = capsys.readouterr().err
    assert "invalid campaign name" in err and "Traceback" not in err


# -- the property: random operations on two campaigns ------------------------------------
NAMES = ("ann", "bob", "cho")
NEW_NAMES = ("dan", "eun")
CAMPAIGNS = ("default", "other")


class TwoCampaigns(RuleBasedStateMachine):
    """Random grants, assignments and grades in either campaign of one database; each
    campaign must hold exactly what the model says it holds."""

    target_factory = None  # set by the test: () -> a new database (path or URL)
    files = None

    @initialize()
    def setup(self):
        target = type(self).target_factory()
        first = open_database(target)
        for name in NAMES:
            accounts.insert_user(first, name, "not-a-hash", "annotator")
        campaign.import_file(first, "corpus", self.files["corpus"])
        campaign.import_file(first, "questions", self.files["questions"])
        campaign.import_file(first, "run", self.files["run_a"])
        campaign.import_file(first, "run", self.files["run_b"])
        campaign.pool(first, 10)
        first.close()
        campaigns.create(target, "other")
        other = open_database(target, campaign="other")
        campaign.import_file(other, "corpus", self.files["corpus"])
        campaign.import_file(other, "questions", self.files["questions"])
        campaign.import_file(other, "run", self.files["run_b"])
        campaign.pool(other, 10)
        self.db = {"default": open_database(target), "other": other}
        self.pool = {c: sorted(d.cursor().execute("SELECT qid, pid FROM pool").fetchall()) for c, d in self.db.items()}
        self.roles = {"default": dict.fromkeys(NAMES, "annotator"), "other": {}}
        self.assigned = {c: set() for c in CAMPAIGNS}
        self.made = set()
        self.grades = {c: {} for c in CAMPAIGNS}

    def teardown(self):
        for d in getattr(self, "db", {}).values():
            d.close()

    @rule(
        c=st.sampled_from(CAMPAIGNS),
        user=st.sampled_from(NAMES + NEW_NAMES),
        role=st.sampled_from(("annotator", "lead")),
    )
    def grant(self, c, user, role):
        if user in NEW_NAMES and user not in self.made:
            return
        accounts.grant_role(self.db[c], user, role)
        self.roles[c][user] = role

    @rule(c=st.sampled_from(CAMPAIGNS), user=st.sampled_from(NEW_NAMES), role=st.sampled_from(("annotator", "lead")))
    def add_account(self, c, user, role):
        """A new account made in campaign ``c``: a role there, none in the other."""
        if any(user in roles for roles in self.roles.values()) or user in self.made:
            with pytest.raises(ReljudgeError):
                auth.add_user(self.db[c], user, "password-" + user, role)
            return
        auth.add_user(self.db[c], user, "password-" + user, role)
        self.made.add(user)
        self.roles[c][user] = role

    @rule(c=st.sampled_from(CAMPAIGNS), user=st.sampled_from(NAMES + NEW_NAMES))
    def revoke(self, c, user):
        if user not in self.roles[c]:
            return
        auth.revoke_role(self.db[c], user)
        del self.roles[c][user]

    @rule(c=st.sampled_from(CAMPAIGNS), user=st.sampled_from(NAMES), i=st.integers(0, 50))
    def assign(self, c, user, i):
        qid = self.pool[c][i % len(self.pool[c])][0]
        team.add_assignments(self.db[c], pd.DataFrame({"qid": [qid], "username": [user]}), "test")
        self.assigned[c].add((qid, user))

    @rule(
        c=st.sampled_from(CAMPAIGNS), user=st.sampled_from(NAMES + NEW_NAMES), i=st.integers(0, 50), g=st.integers(0, 2)
    )
    def grade(self, c, user, i, g):
        """Grade an item of either campaign's pool in campaign ``c``: stored exactly when it
        is in ``c``'s pool and ``c``'s queue rule lets ``user`` judge its question."""
        both = self.pool["default"] + self.pool["other"]
        qid, pid = both[i % len(both)]
        mine = {q for q, u in self.assigned[c] if u == user}
        allowed = (
            (qid, pid) in self.pool[c]
            and user in self.roles[c]
            # a lead without assignments judges only questions nobody is assigned (issue 39.7:
            # on an assigned question a lead's grade is refused, adjudicate_instead)
            and (
                not self.assigned[c]
                or qid in mine
                or (self.roles[c][user] == "lead" and not mine and qid not in {q for q, _ in self.assigned[c]})
            )
        )
        if user not in self.roles[c]:
            # the pages and the save route know no such user here (user_for_token is None)
            assert user not in set(accounts.list_users(self.db[c]).username)
            return
        try:
            judging.grade(self.db[c], user, qid, pid, g)
            stored = True
        except ReljudgeError:
            stored = False
        assert stored == allowed
        if stored:
            self.grades[c][(user, qid, pid)] = g

    @invariant()
    def each_campaign_holds_its_own(self):
        if not hasattr(self, "db"):
            return
        for c, d in self.db.items():
            roles = dict(accounts.list_users(d)[["username", "role"]].itertuples(index=False))
            assert roles == self.roles[c]
            active = team.active_assignments(d)
            assert set(zip(active.qid, active.username)) == self.assigned[c]
            held = d.cursor().execute("SELECT username, qid, pid, grade FROM current_judgments").fetchall()
            assert {(u, q, p): g for u, q, p, g in held} == self.grades[c]
            assert sorted(d.cursor().execute("SELECT qid, pid FROM pool").fetchall()) == self.pool[c]


def test_random_operations_keep_two_campaigns_apart(backend, request, tmp_path, files):
    count = iter(range(10_000))
    if backend == "postgresql":
        server, template = request.getfixturevalue("pg_server"), request.getfixturevalue("pg_template")
        TwoCampaigns.target_factory = staticmethod(lambda: server.url(server.new_database(template=template)))
        n_examples = examples(4)
    else:
        TwoCampaigns.target_factory = staticmethod(lambda: tmp_path / f"prop-{next(count)}.duckdb")
        n_examples = examples(10)
    TwoCampaigns.files = files
    run_state_machine_as_test(
        TwoCampaigns,
        settings=settings(
            max_examples=n_examples,
            stateful_step_count=12,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            database=None,
        ),
    )


# -- POST /api/events with "campaign", against a real server process ---------------------
def test_the_save_route_checks_the_role_and_pool_of_the_campaign_named(tmp_path, files):
    from e2e_support import StreamlitServer, build_campaign
    from test_api_routes import event, post

    people = {"ann1": ("annotator-pass-1", "annotator"), "ann2": ("annotator-pass-2", "annotator")}
    camp = build_campaign(tmp_path / "api.duckdb", tmp_path / "built", n_questions=2, pool_size=4, accounts=people)
    campaigns.create(camp.db_path, "second")
    db, two = open_database(camp.db_path), open_database(camp.db_path, campaign="second")
    try:
        campaign.import_file(two, "corpus", files["corpus"])
        campaign.import_file(two, "questions", files["questions"])
        campaign.import_file(two, "run", files["run_a"])
        campaign.pool(two, 10)
        auth.grant_role(two, "ann1", "lead")
        auth.add_user(two, "outsider", "password-out", "annotator")  # made in the second campaign
        other_qid, other_pid = two.cursor().execute("SELECT qid, pid FROM pool ORDER BY ALL LIMIT 1").fetchone()
        tokens = {u: auth.start_session(db, auth.User(u, "annotator")) for u in [*people, "outsider"]}
    finally:
        two.close()
        db.close()
    qid = camp.qids[0]
    server = StreamlitServer(db_path=camp.db_path, log_path=tmp_path / "server.log").start()
    try:
        url = f"{server.url}/api/events"
        here, there = event(qid, camp.pool[qid][0]), event(other_qid, other_pid, grade=1)
        status, answer, _ = post(url, {"events": [here]}, token=tokens["ann1"])
        assert status == 200 and answer["acked"] == [here["id"]]
        status, answer, _ = post(url, {"events": [there], "campaign": "second"}, token=tokens["ann1"])
        assert status == 200 and answer["acked"] == [there["id"]]
        # the other campaign's item, sent without "campaign": the default's pool refuses it
        stray = event(other_qid, other_pid)
        status, answer, _ = post(url, {"events": [stray], "campaign": None}, token=tokens["ann1"])
        assert status == 200 and answer["acked"] == [] and stray["id"] in answer["rejected"]
        # ann2 annotates the default campaign only
        status, answer, _ = post(url, {"events": [event(other_qid, other_pid)], "campaign": "second"}, tokens["ann2"])
        assert (status, answer["error"]) == (403, "not_in_campaign")
        assert post(url, {"events": [there], "campaign": "second"})[0] == 401
        # an account made in the second campaign has no role in the default one (regression:
        # it was an annotator there, and the default campaign has no assignments)
        status, answer, _ = post(url, {"events": [event(qid, camp.pool[qid][1])]}, tokens["outsider"])
        assert (status, answer["error"]) == (403, "not_in_campaign")
        status, answer, _ = post(
            url, {"events": [event(other_qid, other_pid)], "campaign": "second"}, tokens["outsider"]
        )
        assert status == 200 and len(answer["acked"]) == 1
        status, answer, _ = post(f"{server.url}/api/login", {"username": "outsider", "password": "password-out"})
        assert status == 200 and answer == {"username": "outsider", "role": None}
        # a campaign that does not exist is refused exactly as one without a role there, so
        # that names cannot be enumerated (issue 34.4); only the name sent back differs
        nope = post(url, {"events": [there], "campaign": "nope"}, token=tokens["ann1"])
        hidden = post(url, {"events": [there], "campaign": "second"}, token=tokens["ann2"])
        assert nope[0] == hidden[0] == 403 and nope[1]["error"] == hidden[1]["error"] == "not_in_campaign"
        assert nope[1]["message"].replace("nope", "X") == hidden[1]["message"].replace("second", "X")
        assert sorted(nope[1]) == sorted(hidden[1])
        for bad in ("Second", 5, ["second"], "a;b"):
            status, answer, _ = post(url, {"events": [there], "campaign": bad}, token=tokens["ann1"])
            assert (status, answer["error"]) == (400, "bad_campaign")
    finally:
        server.stop()
    db, two = open_database(camp.db_path), open_database(camp.db_path, campaign="second")
    try:
        held = "SELECT client_event_id, username, grade FROM judgment_events ORDER BY ALL"
        assert db.cursor().execute(held).fetchall() == [(here["id"], "ann1", 2)]
        assert sorted(r[1:] for r in two.cursor().execute(held).fetchall()) == [("ann1", 1), ("outsider", 2)]
    finally:
        two.close()
        db.close()


# -- copy-db copies every campaign --------------------------------------------------------
def test_copy_db_copies_every_campaign_both_ways(tmp_path, pg_url, files, capsys):
    from reljudge.storage import transfer

    first = tmp_path / "first.duckdb"
    db = open_database(first)
    load_small_campaign(db, files)
    qid, pid = db.cursor().execute("SELECT qid, pid FROM pool ORDER BY ALL LIMIT 1").fetchone()
    judging.grade(db, "ann", qid, pid, 2)
    db.close()
    campaigns.create(first, "second")
    two = open_database(first, campaign="second")
    campaign.import_file(two, "corpus", files["corpus"])
    campaign.import_file(two, "questions", files["questions"])
    campaign.import_file(two, "run", files["run_b"])
    campaign.pool(two, 10)
    auth.grant_role(two, "bob", "lead")
    for grade in (0, 1, 2):
        judging.grade(two, "bob", qid, pid, grade)
    two.close()
    back = tmp_path / "back.duckdb"
    assert main(["copy-db", str(first), pg_url]) == 0
    assert "campaign second:" in capsys.readouterr().out
    assert main(["copy-db", pg_url, str(back)]) == 0
    for name in ("default", "second"):
        a, p, b = (open_database(t, campaign=name) for t in (first, pg_url, back))
        try:
            assert transfer.tables(a) == transfer.tables(p) == transfer.tables(b)
            assert transfer.compare(a, p) == {} and transfer.compare(a, b) == {}
            counts = transfer.row_counts(a)
            assert counts["judgment_events"] == (1 if name == "default" else 3)
            assert transfer.row_counts(p) == counts == transfer.row_counts(b)
            roles = dict(accounts.list_users(p)[["username", "role"]].itertuples(index=False))
            assert roles == (
                {"ann": "annotator", "bob": "annotator", "lee": "lead"} if name == "default" else {"bob": "lead"}
            )
            # new events continue after the copied ids, in each campaign's own sequence
            top = counts["judgment_events"]
            for d in (p, b):
                judging.grade(d, "bob" if name == "second" else "lee", qid, pid, 1)
                assert d.cursor().execute("SELECT max(event_id) FROM judgment_events").fetchone()[0] == top + 1
        finally:
            for d in (a, p, b):
                d.close()


def test_copy_db_copies_one_campaign_with_the_accounts(tmp_path, pg_url, files, capsys):
    """`reljudge --campaign NAME copy-db`: that campaign alone, with the shared accounts and
    its own place in the register and its roles; the other campaigns stay behind."""
    from reljudge.storage import transfer

    first = tmp_path / "first.duckdb"
    db = open_database(first)
    load_small_campaign(db, files)
    qid, pid = db.cursor().execute("SELECT qid, pid FROM pool ORDER BY ALL LIMIT 1").fetchone()
    judging.grade(db, "ann", qid, pid, 2)
    db.close()
    for name, run in (("second", "run_b"), ("third", "run_a")):
        campaigns.create(first, name)
        other = open_database(first, campaign=name)
        campaign.import_file(other, "corpus", files["corpus"])
        campaign.import_file(other, "questions", files["questions"])
        campaign.import_file(other, "run", files[run])
        campaign.pool(other, 10)
        auth.grant_role(other, "bob", "lead")
        auth.grant_role(other, "ann", "annotator")
        judging.grade(other, "bob", qid, pid, 1)
        other.close()
    assert main(["--campaign", "second", "copy-db", str(first), pg_url]) == 0
    assert "(campaign second and the accounts)" in capsys.readouterr().out
    target = open_database(pg_url)
    try:
        assert target.campaign_names() == ["default", "second"]
        assert transfer.row_counts(target)["judgment_events"] == 0  # the default campaign stays behind
        assert transfer.row_counts(target)["users"] == 2  # ... but its accounts (bob, ann) come along
    finally:
        target.close()
    a, b = open_database(first, campaign="second"), open_database(pg_url, campaign="second")
    try:
        assert transfer.compare(a, b) == {}
        assert dict(accounts.list_users(b)[["username", "role"]].itertuples(index=False)) == {
            "bob": "lead",
            "ann": "annotator",
        }
        judging.grade(b, "ann", qid, pid, 2)  # the copy takes new work
    finally:
        a.close()
        b.close()
    # the default campaign alone, into a file: no other campaign, no roles of others
    alone = tmp_path / "alone.duckdb"
    assert main(["--campaign", "default", "copy-db", str(first), str(alone)]) == 0
    c = open_database(alone)
    try:
        assert c.campaign_names() == ["default"]
        assert transfer.row_counts(c)["judgment_events"] == 1 and transfer.row_counts(c)["campaign_roles"] == 0
    finally:
        c.close()
    # an unknown campaign is said, with the ones there are; nothing is written
    assert main(["--campaign", "nope", "copy-db", str(first), str(tmp_path / "x.duckdb")]) == 2
    err = capsys.readouterr().err
    assert "no campaign 'nope'" in err and "Traceback" not in err
    assert not (tmp_path / "x.duckdb").exists()


def test_copy_db_of_one_campaign_carries_only_its_accounts_and_never_a_session(tmp_path, files, capsys):
    """Issue 34.5: `--campaign C copy-db` carried every account's password hash, live
    session hashes and login events, also of accounts with no role in C."""
    from reljudge.storage import transfer

    first = tmp_path / "first.duckdb"
    db = open_database(first)
    load_small_campaign(db, files)  # ann, bob annotate, lee leads
    db.close()
    for name in ("second", "third"):
        campaigns.create(first, name)
    two, three = open_database(first, campaign="second"), open_database(first, campaign="third")
    db = open_database(first)
    try:
        auth.grant_role(two, "bob", "lead")
        auth.add_user(three, "outsider", "password-out", "annotator")  # a role in third only
        for user, password in (("bob", "password-bob"), ("lee", "password-lee"), ("outsider", "password-out")):
            auth.login(db, user, password)
            auth.start_session(db, auth.User(user, None))
        auth.login(db, "lee", "wrong-password")
        counts = transfer.row_counts(db)
        assert counts["sessions"] == 3 and counts["users"] == 4 and counts["login_events"] >= 4
    finally:
        for d in (two, three, db):
            d.close()

    def shared_rows(path, table):
        d = open_database(path)
        try:
            return d.cursor().execute(f"SELECT username FROM {d.shared(table)} ORDER BY ALL").fetchall()
        finally:
            d.close()

    alone = tmp_path / "second.duckdb"
    assert main(["--campaign", "second", "copy-db", str(first), str(alone)]) == 0
    out = capsys.readouterr().out
    assert "accounts: the 1 with a role in campaign second (of 4)" in out
    assert "live sessions: none (a one-campaign copy never carries them)" in out
    assert shared_rows(alone, "users") == [("bob",)]
    assert shared_rows(alone, "sessions") == []
    assert set(shared_rows(alone, "login_events")) == {("bob",)}
    c = open_database(alone, campaign="second")
    try:
        assert dict(accounts.list_users(c)[["username", "role"]].itertuples(index=False)) == {"bob": "lead"}
        assert auth.login(c, "bob", "password-bob").user.username == "bob"  # the hash came along
    finally:
        c.close()

    every = tmp_path / "second-all.duckdb"
    assert main(["--campaign", "second", "copy-db", "--all-accounts", str(first), str(every)]) == 0
    out = capsys.readouterr().out
    assert "accounts: all 4 (--all-accounts)" in out and "live sessions: none" in out
    assert len(shared_rows(every, "users")) == 4 and shared_rows(every, "sessions") == []

    # the default campaign alone: its own accounts (not outsider, made in third)
    default = tmp_path / "default.duckdb"
    assert main(["--campaign", "default", "copy-db", str(first), str(default)]) == 0
    assert "accounts: the 3 with a role in campaign default (of 4)" in capsys.readouterr().out
    assert shared_rows(default, "users") == [("ann",), ("bob",), ("lee",)]
    assert ("outsider",) not in shared_rows(default, "login_events") and shared_rows(default, "sessions") == []

    # a whole copy says that it carries the live sessions, or leaves them behind when asked
    whole = tmp_path / "whole.duckdb"
    assert main(["copy-db", str(first), str(whole)]) == 0
    assert "live sessions: 3 carried" in capsys.readouterr().out
    assert len(shared_rows(whole, "sessions")) == 3
    dropped = tmp_path / "dropped.duckdb"
    assert main(["copy-db", "--drop-sessions", str(first), str(dropped)]) == 0
    assert "live sessions: none (--drop-sessions" in capsys.readouterr().out
    assert shared_rows(dropped, "sessions") == [] and len(shared_rows(dropped, "users")) == 4
    assert main(["copy-db", "--all-accounts", str(first), str(tmp_path / "x.duckdb")]) == 2
    assert "--all-accounts goes with --campaign" in capsys.readouterr().err


# -- the app: a campaign picker after login, the campaign kept in the URL -----------------
def test_the_app_offers_the_campaigns_of_the_account_and_keeps_the_choice_in_the_url(tmp_path, monkeypatch, files):
    from streamlit.testing.v1 import AppTest

    from reljudge.ui import webapp

    path = tmp_path / "app.duckdb"
    monkeypatch.setenv("RELJUDGE_DB", str(path))
    monkeypatch.setenv("RELJUDGE_DEMO", "1")

    def app() -> AppTest:
        return AppTest.from_file(str(webapp.HERE / "workbench.py"), default_timeout=60)

    def login(at: AppTest, username: str, password: str) -> AppTest:
        at.text_input(key="login_username").input(username)
        at.text_input(key="login_password").input(password)
        at.button[0].click().run()
        return at

    assert not app().run().exception  # the demo fills the default campaign
    campaigns.create(path, "second")
    two = open_database(path, campaign="second")
    try:
        campaign.import_file(two, "corpus", files["corpus"])
        campaign.import_file(two, "questions", files["questions"])
        campaign.import_file(two, "run", files["run_a"])
        campaign.pool(two, 10)
        auth.grant_role(two, "annotator1", "lead")
    finally:
        two.close()

    at = login(app().run(), "annotator1", "demo-pass1")
    assert not at.exception
    pick = at.selectbox(key="rj_campaign_pick_default")
    assert pick.label == "캠페인" and pick.options == ["기본 캠페인 · 판정자", "second · 책임자"]
    with pytest.raises(ValueError):  # an annotator in the default campaign
        at.switch_page("screens/dashboard.py")
    pick.select("second").run()
    assert not at.exception
    assert at.query_params["campaign"] == "second"
    at.switch_page("screens/dashboard.py").run()  # a lead in the second campaign
    assert not at.exception
    assert at.query_params["campaign"] == "second"  # kept across pages
    # the second campaign's lead gives roles there; the accounts themselves are not theirs
    at.switch_page("screens/users.py").run()
    assert not at.exception and at.query_params["campaign"] == "second"
    assert not [w for w in at.selectbox if w.key == "manage_target"]
    at.text_input(key="grant_username").input("lead")
    at.button(key="FormSubmitter:grant_role-이 캠페인의 역할 주기").click().run()
    assert not at.exception
    check = open_database(path)
    try:  # the default campaign's lead annotates the second one
        assert accounts.roles_by_campaign(check, "lead") == {"default": "lead", "second": "annotator"}
    finally:
        check.close()
    at.selectbox(key="rj_campaign_pick_second").select("default").run()
    assert "campaign" not in at.query_params

    # the URL names a campaign where the account has no role, or one the database lacks:
    # both are worded the same, so that campaign names cannot be enumerated (issue 34.4)
    for asked, notice in (("second", "second 캠페인에서는 역할이 없어"), ("nope", "nope 캠페인에서는 역할이 없어")):
        at = app()
        at.query_params["campaign"] = asked
        at.run()
        seen = [i.value for i in at.info]
        at = login(at, "annotator2", "demo-pass2")
        assert not at.exception
        seen += [i.value for i in at.info]
        assert any(notice in text for text in seen), seen
        assert "campaign" not in at.query_params and at.title[0].value == "근거 판정"

    # an account made in the second campaign has no role in the default one: after login it
    # is taken to the second campaign; one whose roles were all taken back is told so
    two = open_database(path, campaign="second")
    try:
        auth.add_user(two, "outsider", "password-out", "annotator")
        auth.add_user(two, "left", "password-left", "annotator")
        auth.revoke_role(two, "left")
    finally:
        two.close()
    at = login(app().run(), "outsider", "password-out")
    assert not at.exception
    assert at.query_params["campaign"] == "second" and at.title[0].value == "근거 판정"
    assert any("기본 캠페인에서는 역할이 없어 second 캠페인을 엽니다" in i.value for i in at.info), [
        i.value for i in at.info
    ]
    at = login(app().run(), "left", "password-left")
    assert not at.exception
    assert any("어느 캠페인에도 역할이 없습니다" in i.value for i in at.info)
    assert at.text_input(key="login_username")  # still the login screen

    # `reljudge --campaign second serve` hands the app its campaign for URLs that name none
    monkeypatch.setenv(CAMPAIGN_ENV_VAR, "second")
    at = login(app().run(), "annotator1", "demo-pass1")
    assert not at.exception and at.query_params["campaign"] == "second"
    assert at.selectbox(key="rj_campaign_pick_second").value == "second"


def test_organisation_identities_are_managed_in_the_default_campaign(tmp_path, capsys):
    """Accounts' e-mails and waiting identities belong to the shared accounts: in another
    campaign the commands say where to manage them (they had ended in a traceback, the
    account table being that campaign's view there), and write nothing."""
    path = str(tmp_path / "c.duckdb")
    db = open_database(path)
    auth.add_user(db, "lee", "password-lee1", "lead")
    accounts.record_identity_request(db, "x@example.org", "X", None)  # refused once, waiting
    db.close()
    campaigns.create(path, "second")
    capsys.readouterr()
    for args in (
        ["users", "email", "lee", "lee@example.org"],
        ["users", "admit", "x@example.org", "xname", "--role", "annotator"],
        ["users", "dismiss", "x@example.org"],
    ):
        assert main(["--db", path, "--campaign", "second", *args]) == 2, args
        err = capsys.readouterr().err
        assert "managed in the default campaign" in err and "Traceback" not in err
    db = open_database(path)
    try:
        assert accounts.emails(db) == {} and not accounts.account_exists(db, "xname")
        assert list(accounts.identity_requests(db).email) == ["x@example.org"]
    finally:
        db.close()
    assert main(["--db", path, "users", "email", "lee", "lee@example.org"]) == 0  # where they belong


def test_assign_refuses_an_account_without_a_role_and_next_words_the_two_cases_apart(db_target, db, files, capsys):
    """Issue 34.3: `assign` in a campaign accepted an account with no role there (60
    assignments for `a1` in `r1`), then `next` said "no such user" of an account that exists."""
    load_small_campaign(db, files)  # ann, bob annotate, lee leads (campaign default)
    target = str(db_target)
    db.close()
    assert main(["--db", target, "campaigns", "create", "r1"]) == 0
    for kind, key in (("corpus", "corpus"), ("questions", "questions"), ("run", "run_a")):
        assert main(["--db", target, "--campaign", "r1", "import", kind, str(files[key])]) == 0
    capsys.readouterr()
    # ann is an account (a role in default), with no role in r1
    assert main(["--db", target, "--campaign", "r1", "assign", "--annotators", "ann", "--lead", "lee"]) == 2
    err = capsys.readouterr().err
    assert "exists, but has no role in campaign r1" in err
    assert "reljudge --campaign r1 users grant ann --role annotator" in err
    assert main(["--db", target, "--campaign", "r1", "next", "--user", "ann"]) == 2
    err = capsys.readouterr().err
    assert "exists, but has no role in campaign r1" in err and "no such" not in err
    assert main(["--db", target, "--campaign", "r1", "next", "--user", "nobody"]) == 2
    assert "no account 'nobody' on this server" in capsys.readouterr().err
    r1 = open_database(db_target, campaign="r1")
    try:
        assert team.active_assignments(r1).empty  # nothing was stored
    finally:
        r1.close()
    # the command the message names works, and then the assignment goes through
    assert main(["--db", target, "--campaign", "r1", "users", "grant", "ann", "--role", "annotator"]) == 0
    assert main(["--db", target, "--campaign", "r1", "assign", "--annotators", "ann", "--lead", "lee"]) == 0
    r1 = open_database(db_target, campaign="r1")
    try:
        assert set(team.active_assignments(r1).username) == {"ann"}
    finally:
        r1.close()


def test_a_campaign_a_stop_left_half_made_is_listed_and_finished(tmp_path, capsys):
    """Issue 34.11: a SIGKILL during `campaigns create` left a registered name without its
    tables; `campaigns list` then crashed (CatalogException) and `create` said it exists."""
    path = tmp_path / "half.duckdb"
    assert main(["--db", str(path), "init"]) == 0
    db = open_database(path)
    try:  # what the stop leaves: the registration, committed; the schema not yet made
        with db.transaction() as cur:
            cur.execute("INSERT INTO campaigns(name) VALUES ('half')")
        assert campaigns.listing(db)[1] == {
            "campaign": "half",
            "questions": None,
            "pool": None,
            "judgment_events": None,
        }
    finally:
        db.close()
    assert campaigns.half_made(path) == ["half"]
    assert main(["--db", str(path), "campaigns", "create", "half"]) == 0
    assert "campaign half finished (a stop had left it half-made)" in capsys.readouterr().out
    assert campaigns.half_made(path) == []
    assert main(["--db", str(path), "campaigns", "create", "half"]) == 2  # now it exists
    assert "exists already" in capsys.readouterr().err
    db = open_database(path)
    try:
        with db.transaction() as cur:
            cur.execute("INSERT INTO campaigns(name) VALUES ('other')")
    finally:
        db.close()
    assert main(["--db", str(path), "campaigns", "list", "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert "campaign other finished" in captured.err
    assert [r["campaign"] for r in json.loads(captured.out)] == ["default", "half", "other"]
    assert all(r["questions"] == 0 for r in json.loads(captured.out))


def test_campaigns_create_killed_at_any_moment_leaves_a_database_that_lists_and_finishes(tmp_path, files, capsys):
    """A real SIGKILL of `reljudge campaigns create` at a sweep of moments: whatever state
    each leaves, `campaigns list` answers, `create` finishes the campaign (or says it is
    there), and the campaign takes an import."""
    import signal
    import subprocess
    import sys
    import time

    path = tmp_path / "killed.duckdb"
    assert main(["--db", str(path), "init"]) == 0

    def cli(*argv):
        # in this process: the killed one is the subject; each Python start cost ~1 s of CI
        capsys.readouterr()
        code = main(["--db", str(path), *argv])
        out = capsys.readouterr()
        return subprocess.CompletedProcess(argv, code, out.out, out.err)

    for i, delay in enumerate([0.05 * k for k in range(1, 13)]):
        name = f"c{i}"
        proc = subprocess.Popen([sys.executable, "-m", "reljudge", "--db", str(path), "campaigns", "create", name])
        time.sleep(delay)  # the moment of the kill is the experiment, not a wait for a condition
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        listed = cli("campaigns", "list", "--format", "json")
        assert listed.returncode == 0, listed.stderr
        made = cli("campaigns", "create", name)
        assert made.returncode == 0 or "exists already" in made.stderr, made.stderr
        imported = cli("--campaign", name, "import", "questions", str(files["questions"]))
        assert imported.returncode == 0, imported.stderr
    final = json.loads(cli("campaigns", "list", "--format", "json").stdout)
    assert [r["campaign"] for r in final] == ["default", *sorted(f"c{i}" for i in range(12))]
    assert all(r["questions"] > 0 for r in final[1:])
