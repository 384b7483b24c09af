"""The policy value: which judgments a figure rests on, parsed in one place.

A policy is written as one string everywhere a user or a script gives it (``--policy``,
the pages' selectors, ``reljudge.evaluate(policy=...)``, a bundle's manifest)::

    adjudicated                  a lead's ruling if any, else the majority, else the lower tied grade
    majority                     the same without the lead's rulings
    annotator:NAME               one annotator's grades
    source:NAME                  an imported (or model) qrels source
    reviewer:NAME                one answer reviewer's records (answer review only)

and the team policies (``adjudicated``, ``majority``) take options after ``+``::

    adjudicated+exclude-flagged  the same, without the annotators quality control flags
                                 (docs/quality-control.md#품질-관리--quality-control) at the
                                 moment the figures are computed

``str(Policy.parse(value)) == value`` for every value this module accepts, with the
options in a fixed order, so a policy can be stored, compared and printed as its string.
The storage layer reads :class:`Policy`; nothing else splits a policy string."""

from __future__ import annotations

from dataclasses import dataclass

from reljudge.codes import Codes
from reljudge.errors import ReljudgeError

CODES = Codes(
    error_unknown_policy=("policy",),
    error_policy_option=("policy", "option"),
    error_policy_name=("policy",),
)
"""What a policy value can be refused for (worded by reljudge.i18n)."""

#: the team policies: several annotators' grades → one decision
TEAM_KINDS = ("adjudicated", "majority")
#: the policies of one named party
NAMED_KINDS = ("annotator", "source", "reviewer")
#: the options a team policy may take, in the order they are written
OPTIONS = ("exclude-flagged",)
EXCLUDE_FLAGGED = "exclude-flagged"


@dataclass(frozen=True)
class Policy:
    """A parsed policy value: ``kind`` (a team kind or a named kind), ``name`` (for a named
    kind) and ``options`` (for a team kind, in :data:`OPTIONS` order)."""

    kind: str
    name: str | None = None
    options: tuple[str, ...] = ()

    @classmethod
    def parse(cls, value: "str | Policy") -> "Policy":
        """The policy a string names; a :class:`Policy` is returned as it is.

        Raises ReljudgeError ``error_unknown_policy`` (no such kind), ``error_policy_name``
        (``annotator:`` without a name) or ``error_policy_option`` (an option that does not
        exist or does not apply to the kind)."""
        if isinstance(value, Policy):
            return value
        text = str(value).strip()
        kind, colon, name = text.partition(":")
        if colon:
            if kind not in NAMED_KINDS:
                raise ReljudgeError(CODES("error_unknown_policy", policy=repr(text)))
            if not name:
                raise ReljudgeError(CODES("error_policy_name", policy=repr(text)))
            return cls(kind, name)
        base, *given = text.split("+")
        if base not in TEAM_KINDS:
            raise ReljudgeError(CODES("error_unknown_policy", policy=repr(text)))
        for option in given:
            if option not in OPTIONS:
                raise ReljudgeError(CODES("error_policy_option", policy=repr(text), option=repr(option)))
        return cls(base, None, tuple(o for o in OPTIONS if o in given))

    def __str__(self) -> str:
        if self.name is not None:
            return f"{self.kind}:{self.name}"
        return "+".join((self.kind, *self.options))

    @property
    def is_team(self) -> bool:
        """Several annotators' grades aggregated (adjudicated or majority)."""
        return self.kind in TEAM_KINDS

    @property
    def uses_adjudications(self) -> bool:
        return self.kind == "adjudicated"

    @property
    def excludes_flagged(self) -> bool:
        return EXCLUDE_FLAGGED in self.options

    @property
    def base(self) -> "Policy":
        """The same policy without options (``adjudicated+exclude-flagged`` → ``adjudicated``)."""
        return Policy(self.kind, self.name)

    def source(self) -> str | None:
        """The source's name of a ``source:NAME`` policy, else None."""
        return self.name if self.kind == "source" else None

    def annotator(self) -> str | None:
        return self.name if self.kind == "annotator" else None

    def reviewer(self) -> str | None:
        return self.name if self.kind == "reviewer" else None


def parse(value: "str | Policy") -> Policy:
    """:meth:`Policy.parse`."""
    return Policy.parse(value)


def qrels_label(policy: "str | Policy", version: int | None = None, lang: str = "ko") -> str:
    """Which judgments a figure rests on, for people (the CLI keeps its English labels:
    reljudge.campaign.adjudication.describe_policy). A value that is no policy shows as written."""
    from reljudge.i18n import t

    if version is not None:
        return t("report_policy_version", lang, v=version)
    try:
        parsed = Policy.parse(policy)
    except ReljudgeError:
        return str(policy)
    if parsed.is_team:
        label = t(f"report_policy_{parsed.kind}", lang)
        return t("policy_exclude_flagged", lang, label=label) if parsed.excludes_flagged else label
    if parsed.kind in ("source", "annotator"):
        return t(f"policy_{parsed.kind}", lang, name=parsed.name)
    return str(parsed)


def team_policies() -> list[str]:
    """Every team policy value a lead can choose, options included, in the selectors' order."""
    return [str(Policy(kind, None, options)) for options in ((), (EXCLUDE_FLAGGED,)) for kind in TEAM_KINDS]


def source_policy(name: str) -> str:
    """The policy value of an imported or model source."""
    return str(Policy("source", name))
