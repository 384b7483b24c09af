"""Which pages exist, who may see them, and at which address: workbench.py builds the menu
from this, the tests check every lead page from it.

Every page has an address of its own, its file name (``/judge``, ``/dashboard``, …),
typed or bookmarked, logged in or out. ``/`` is a hidden page that leads to the home page
(``/judge``): Streamlit serves its default page at ``/`` only, so a visible default page
would have no address of its own (``/judge`` would be "not found"). An address the user's
role lacks (a lead page for an annotator) or that no page has leads to the home page too,
with a notice in the user's language, instead of Streamlit's English "Page not found"
dialog: the unknown address gets a hidden page of its own for that run.
"""

from __future__ import annotations

from typing import Callable
from urllib.parse import unquote, urlsplit

# (file in pages/ — reached as ui/screens/ —, title key in i18n, icon); a page's address is its file name.
ANNOTATOR_PAGES = [("judge", "nav_judge", ":material/edit_note:"), ("review", "nav_review", ":material/fact_check:")]
LEAD_PAGES = [
    ("dashboard", "nav_dashboard", ":material/monitoring:"),
    ("overview", "nav_overview", ":material/checklist:"),
    ("import_data", "nav_import", ":material/upload_file:"),
    ("assign", "nav_assign", ":material/assignment_ind:"),
    ("agreement", "nav_agreement", ":material/handshake:"),
    ("quality", "nav_quality", ":material/verified:"),
    ("adjudicate", "nav_adjudicate", ":material/balance:"),
    ("review_assign", "nav_review_assign", ":material/assignment_ind:"),
    ("review_adjudicate", "nav_review_adjudicate", ":material/rule:"),
    ("export", "nav_export", ":material/download:"),
    ("users", "nav_users", ":material/group:"),
    ("audit", "nav_audit", ":material/history:"),
]
HOME = "judge"  # where "/" leads, and an address the user cannot open
DEFAULT_PAGE = HOME  # (its former name)
NOTICE = "_rj_address_notice"  # session state: (message key, address) to show on the next run


def pages_for(is_lead: bool) -> list[tuple[str, str, str]]:
    return ANNOTATOR_PAGES + (LEAD_PAGES if is_lead else [])


def all_addresses() -> list[str]:
    return [name for name, _, _ in ANNOTATOR_PAGES + LEAD_PAGES]


def address(url: str | None, base_path: str = "") -> str | None:
    """The page address a browser's URL names, as Streamlit matches it against the pages'
    ``url_path``: the path after the server's base path, percent-decoded, without the
    slashes around it ("" for the root). None without a URL (a client that is not a
    browser page, e.g. AppTest)."""
    if not url:
        return None
    path = unquote(urlsplit(url).path)
    base = "/" + base_path.strip("/") if base_path.strip("/") else ""
    if base and (path == base or path.startswith(base + "/")):
        path = path[len(base) :]
    return path.strip("/")


def can_have_page(name: str | None) -> bool:
    """``name`` can be the address of a page of its own (st.Page refuses a "/" inside and
    trims spaces around it; "" is the root)."""
    return bool(name) and "/" not in name and name == name.strip()


def _leads_to(target, notice: tuple[str, str] | None) -> Callable[[], None]:
    """A hidden page's body: remember the notice, open ``target`` instead."""

    def lead_elsewhere() -> None:
        import streamlit as st

        if notice:
            st.session_state[NOTICE] = notice
        st.switch_page(target)

    return lead_elsewhere


#: the query parameter that opens the Assignments page's reassign form on one annotator
REASSIGN_PARAM = "reassign"


def link_to_reassign(name: str, label: str) -> None:
    """A link to the Assignments page with its reassign form set on annotator ``name``
    (the quality page's way from a flagged annotator to the form, issue 39.6)."""
    import streamlit as st

    st.page_link("screens/assign.py", label=label, icon=":material/swap_horiz:", query_params={REASSIGN_PARAM: name})


def reassign_choice(annotators: list[str]) -> int:
    """Where the reassign form starts: the annotator the URL names (a link from the quality
    page), else the first."""
    import streamlit as st

    asked = st.query_params.get(REASSIGN_PARAM)
    return annotators.index(asked) if asked in annotators else 0


def app_pages(is_lead: bool, title: Callable[[str], str], requested: str | None) -> list:
    """The logged-in menu: the role's pages at their own addresses; hidden, ``/`` and every
    other address (the other role's pages, the ``requested`` one if no page has it),
    leading to the home page."""
    import streamlit as st

    own = {
        name: st.Page(f"screens/{name}.py", title=title(key), icon=icon, url_path=name)
        for name, key, icon in pages_for(is_lead)
    }
    home = own[HOME]
    pages = [
        st.Page(_leads_to(home, None), title=home.title, url_path="", default=True, visibility="hidden"),
        *own.values(),
    ]
    pages += [
        st.Page(_leads_to(home, ("address_lead_only", name)), title=home.title, url_path=name, visibility="hidden")
        for name in all_addresses()
        if name not in own
    ]
    if can_have_page(requested) and requested not in all_addresses():
        pages.append(
            st.Page(
                _leads_to(home, ("address_unknown", requested)),
                title=home.title,
                url_path=requested,
                visibility="hidden",
            )
        )
    return pages


def login_pages(screen: Callable[[object], None], title: str, requested: str | None) -> list:
    """The logged-out menu (hidden): the login screen under every address, which leads to
    that address's page once logged in (``/``: to the home page); an unknown ``requested``
    address leads to ``/`` with a notice. ``screen(target)`` draws the login screen whose
    login moves on to the page ``target``."""
    import streamlit as st

    pages: dict[str, object] = {}

    def login_to(name: str) -> Callable[[], None]:
        def login() -> None:
            screen(pages[name])

        return login

    for name in all_addresses():
        pages[name] = st.Page(login_to(name), title=title, url_path=name)
    root = st.Page(login_to(HOME), title=title, url_path="", default=True)
    menu = [root, *pages.values()]
    if can_have_page(requested) and requested not in pages:
        menu.append(st.Page(_leads_to(root, ("address_unknown", requested)), title=title, url_path=requested))
    return menu


def show_notice(text: Callable[..., str]) -> None:
    """The notice a hidden page left for this run (``text(key, address=…)`` words it)."""
    import streamlit as st

    notice = st.session_state.pop(NOTICE, None)
    if notice:
        key, name = notice
        st.info(text(key, address=name), icon=":material/info:")
