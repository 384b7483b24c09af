"""The CLI's account and campaign commands: ``users``, ``campaigns`` and ``types``
(registered by :func:`reljudge.cli.main.build_parser` in their place among the commands)."""

from __future__ import annotations

import argparse
import sys

from reljudge import i18n
from reljudge.cli.common import error as _error
from reljudge.cli.common import open_db as _db


def register(sub, add) -> None:
    """Add the three commands to the subparsers ``sub``; ``add(name, help, example,
    handler)`` makes a command's parser as every command of cli/main.py is made."""
    p = add(
        "users",
        "manage accounts (passwords are Argon2id-hashed)",
        "echo 's3cret-pass' | reljudge users add kim --role annotator --password-stdin",
        cmd_users,
    )
    users_sub = p.add_subparsers(dest="action", metavar="ACTION")
    users_sub.required = True
    u = users_sub.add_parser("add", help="add a user")
    u.add_argument("name")
    u.add_argument("--role", choices=["annotator", "lead"], default="annotator")
    u.add_argument("--password-stdin", action="store_true", help="read the password from stdin")
    u = users_sub.add_parser("passwd", help="change a password (lifts a lock of the account)")
    u.add_argument("name")
    u.add_argument("--password-stdin", action="store_true")
    u.add_argument("--lead", default="cli", help="name recorded as who changed it (default: cli)")
    u = users_sub.add_parser("unlock", help="lift the lock after too many failed logins")
    u.add_argument("name")
    u.add_argument("--lead", default="cli", help="name recorded as who unlocked it (default: cli)")
    for action in ("deactivate", "activate"):
        users_sub.add_parser(action, help=f"{action} a user").add_argument("name")
    users_sub.add_parser("list", help="list users")
    # organisation login (docs/org-login.md#조직-계정-로그인--organisation-login)
    u = users_sub.add_parser("email", help="set the e-mail an account signs in with (organisation login)")
    u.add_argument("name")
    u.add_argument("email", help='the verified e-mail of the organisation account ("" to unlink)')
    u.add_argument("--lead", default="cli", help="name recorded as who set it (default: cli)")
    users_sub.add_parser("requests", help="list organisation identities waiting for an account")
    u = users_sub.add_parser("admit", help="give a waiting organisation identity a new account with a role")
    u.add_argument("email")
    u.add_argument("name", help="the new account's username")
    u.add_argument("--role", choices=["annotator", "lead"], default="annotator")
    u.add_argument("--lead", default="cli", help="name recorded as who admitted it (default: cli)")
    u = users_sub.add_parser("dismiss", help="drop a waiting organisation identity's request")
    u.add_argument("email")
    u = users_sub.add_parser("grant", help="give an account of this database a role in the chosen campaign")
    u.add_argument("name")
    u.add_argument("--role", choices=["annotator", "lead"], required=True)
    u = users_sub.add_parser(
        "revoke",
        help="take an account's role in the chosen campaign (it keeps its roles in the others)",
    )
    u.add_argument("name")
    # personal API tokens for remote clients (docs/served.md#토큰과-원격-클라이언트--tokens-and-remote-clients)
    u = users_sub.add_parser(
        "token",
        help="personal API tokens of the chosen campaign for remote clients (reljudge --db https://…)",
        description="Personal API tokens: a token gives its account's role in the chosen campaign to a "
        "remote client (reljudge --db https://HOST with $RELJUDGE_TOKEN). Only its hash is stored: "
        "`create` prints it once. Through a token a lead manages the tokens of the campaign's accounts, "
        "anyone else only their own; the local CLI names the account with --user.",
        epilog="example:\n  reljudge --campaign round2 users token create laptop --user kim --expires 30d\n"
        "  reljudge --campaign round2 users token list\n  reljudge --campaign round2 users token revoke laptop --user kim",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    token_sub = u.add_subparsers(dest="token_action", metavar="TOKEN_ACTION")
    token_sub.required = True
    t = token_sub.add_parser("create", help="create a token and print it once")
    t.add_argument("name", help="the token's name (e.g. the machine it is for), unique among the account's live tokens")
    t.add_argument(
        "--expires",
        metavar="AGE",
        help="how long it is valid: 12h, 30d, 8w (at most five years), or never (default: 90d)",
    )
    t.add_argument("--user", metavar="ACCOUNT", help="whose token (default through a token: your own)")
    t = token_sub.add_parser("list", help="list the campaign's tokens (never the tokens themselves)")
    t.add_argument("--user", metavar="ACCOUNT", help="only this account's tokens")
    t = token_sub.add_parser("revoke", help="revoke a token: it is refused from now on")
    t.add_argument("name")
    t.add_argument("--user", metavar="ACCOUNT", help="whose token (default through a token: your own)")

    p = add(
        "campaigns",
        "several campaigns in one database: create one, list them",
        "reljudge campaigns create round2 && reljudge --campaign round2 import questions q.csv",
        cmd_campaigns,
    )
    campaigns_sub = p.add_subparsers(dest="action", metavar="ACTION")
    campaigns_sub.required = True
    c = campaigns_sub.add_parser("create", help="create a campaign (a letter, then letters, digits or _)")
    c.add_argument("name")
    c = campaigns_sub.add_parser("list", help="list the campaigns with their numbers of questions, pool items, events")
    c.add_argument("--format", choices=("table", "json"), default="table")

    p = add(
        "types",
        "the question types the campaign declares: a questions import with another type is "
        "refused (file, line, the declared list); new campaigns declare the methodology's four",
        "reljudge types list\n  reljudge types add '역사 배경' 인물\n  reljudge types remove 인물",
        cmd_types,
    )
    types_sub = p.add_subparsers(dest="action", metavar="ACTION")
    types_sub.required = True
    t = types_sub.add_parser(
        "list",
        help="the declared types in order, each with its number of questions (TSV)",
        description="The declared types in order, each with its number of questions "
        "(name<TAB>questions); questions without a type are counted on stderr.",
        epilog="example:\n  reljudge types list",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    t = types_sub.add_parser(
        "add",
        help="declare one or more types (all or none; names with spaces in quotes)",
        description="Declare question types, all or none. A name that differs from a "
        "declared type only in spacing, case or punctuation is refused.",
        epilog="example:\n  reljudge types add '역사 배경' 인물",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    t.add_argument("names", nargs="+", metavar="NAME")
    t.add_argument("--lead", default="cli", help="name recorded as who declared them (default: cli)")
    t = types_sub.add_parser(
        "remove",
        help="withdraw a declared type (refused while questions have it)",
        description="Withdraw a declared type; refused while any question has it "
        "(change those questions first: import questions --update-questions).",
        epilog="example:\n  reljudge types remove 인물",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    t.add_argument("name", metavar="NAME")
    t.add_argument("--lead", default="cli", help="name recorded as who withdrew it (default: cli)")


def cmd_users(args) -> int:
    from reljudge.campaign import auth
    from reljudge.cli.forward import read_password

    db = _db(args, create=args.action == "add")
    if args.action == "token":
        return _cmd_token(args, db)
    if args.action == "add":
        user = auth.add_user(db, args.name, read_password(args), args.role)
        print(f"added {user.username} ({user.role})")
    elif args.action == "grant":
        user = auth.grant_role(db, args.name, args.role)
        print(f"{user.username} is {user.role} in campaign {db.campaign}")
    elif args.action == "revoke":
        auth.revoke_role(db, args.name)
        print(f"{args.name} has no role in campaign {db.campaign} any more")
    elif args.action == "passwd":
        auth.set_password(db, args.name, read_password(args), args.lead)
        print(f"password changed for {args.name} (and any lock lifted)")
    elif args.action == "unlock":
        if not auth.accounts.account_exists(db, args.name):
            return _error(i18n.message(auth.CODES("error_no_such_account", user=args.name), "en"))
        was_locked = auth.unlock(db, args.name, args.lead)
        print(f"unlocked {args.name}" if was_locked else f"{args.name} was not locked")
    elif args.action == "deactivate":
        auth.set_active(db, args.name, False)
        print(f"deactivated {args.name}")
    elif args.action == "activate":
        auth.set_active(db, args.name, True)
        print(f"activated {args.name}")
    elif args.action == "email":
        auth.set_email(db, args.name, args.email, args.lead)
        print(
            f"{args.name} signs in with {auth.normalize_email(args.email)}" if args.email else f"{args.name}: no e-mail"
        )
    elif args.action == "requests":
        frame = auth.identity_requests(db)
        print(
            frame[["email", "identity_name", "provider", "refusals", "last_seen"]].to_string(index=False)
            if not frame.empty
            else "no organisation identity is waiting"
        )
    elif args.action == "admit":
        user = auth.activate_identity(db, args.email, args.name, args.role, args.lead)
        print(f"added {user.username} ({user.role}), who signs in with {auth.normalize_email(args.email)}")
    elif args.action == "dismiss":
        auth.dismiss_identity(db, args.email)
        print(f"dismissed the request of {args.email}")
    else:
        frame = auth.list_users(db)
        emails = auth.accounts.emails(db)
        frame["email"] = [emails.get(name, "") for name in frame.username]
        print(
            frame[["username", "role", "active", "judgment_events", "email"]].to_string(index=False)
            if not frame.empty
            else "no users"
        )
    return 0


def _cmd_token(args, db) -> int:
    """``users token create/list/revoke``. ``args.acting_user``/``acting_role``: the
    caller through an API token (set by the server, reljudge.web.api); absent on the
    local CLI, which acts as the operator."""
    from reljudge.campaign import api_tokens

    acting, role = getattr(args, "acting_user", None), getattr(args, "acting_role", None)
    if args.token_action == "list":
        if args.user is not None or (acting is not None and role != "lead"):
            who = api_tokens.acting_user(db, args.user, acting, role)
        else:
            who = None
        rows = api_tokens.list_tokens(db, who)
        if not rows:
            print("no tokens")
            return 0
        import pandas as pd

        frame = pd.DataFrame(rows).rename(columns={"username": "user"})
        for column in ("created_at", "expires_at", "revoked_at", "last_used_at"):
            frame[column] = [
                "" if v is None or pd.isna(v) else pd.Timestamp(v).strftime("%Y-%m-%d %H:%M") for v in frame[column]
            ]
        print(frame.to_string(index=False))
        return 0
    user = api_tokens.acting_user(db, args.user, acting, role)
    if args.token_action == "create":
        hours = api_tokens.expires_hours(args.expires)
        token = api_tokens.create(db, user, args.name, hours, acting or "cli")
        expiry = "never expires" if hours is None else f"expires in {args.expires or api_tokens.DEFAULT_EXPIRES}"
        print(
            f"token {args.name} of {user} in campaign {db.campaign} ({expiry}); it is shown only this once:",
            file=sys.stderr,
        )
        print(token)
    else:
        api_tokens.revoke(db, user, args.name)
        print(f"revoked token {args.name} of {user} in campaign {db.campaign}")
    return 0


def cmd_campaigns(args) -> int:
    import json

    from reljudge.errors import ReljudgeError
    from reljudge.storage import campaigns
    from reljudge.storage.db import DEFAULT_CAMPAIGN, open_database

    if args.action == "create":
        try:
            unfinished = args.name in campaigns.half_made(args.db)
        except ReljudgeError:  # a new database: nothing half-made in it
            unfinished = False
        campaigns.create(args.db, args.name)
        done = "finished (a stop had left it half-made)" if unfinished else "created"
        print(f"campaign {args.name} {done}: use it with --campaign {args.name} (or RELJUDGE_CAMPAIGN={args.name})")
        return 0
    # a campaign a stop left half-made (registered, its schema unfinished) is finished first
    for name in campaigns.half_made(args.db):
        campaigns.finish(args.db, name)
        print(f"campaign {name} finished (a stop had left it half-made)", file=sys.stderr)
    db = open_database(args.db, must_exist=True, campaign=DEFAULT_CAMPAIGN)
    try:
        rows = campaigns.listing(db)
    finally:
        db.close()
    if args.format == "json":
        print(json.dumps(rows, ensure_ascii=False, indent=2))
    else:
        import pandas as pd

        print(pd.DataFrame(rows).to_string(index=False))
    return 0


def cmd_types(args) -> int:
    from reljudge.campaign import setup as campaign

    db = _db(args)
    if args.action == "add":
        added = campaign.declare_types(db, args.names, args.lead)
        print("declared: " + ", ".join(added) if added else "nothing new: every name was declared already")
        already = [n for n in dict.fromkeys(n.strip() for n in args.names) if n not in added]
        if added and already:
            print("already declared: " + ", ".join(already))
    elif args.action == "remove":
        campaign.withdraw_type(db, args.name, args.lead)
        print(f"withdrew {args.name.strip()!r}: a questions import with it is refused from now on")
    else:
        for row in campaign.question_types_table(db).itertuples():
            print(f"{row.qtype}\t{row.questions}")
        untyped = campaign.untyped_questions(db)
        if untyped:
            print(f"({untyped} questions have no type)", file=sys.stderr)
    return 0
