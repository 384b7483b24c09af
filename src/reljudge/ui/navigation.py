"""Which pages exist and who may see them: workbench.py builds the menu from this, the tests
check every lead page from it."""

from __future__ import annotations

# (file in pages/ — reached as ui/screens/ —, title key in i18n, icon); a page's address is its file name.
ANNOTATOR_PAGES = [("judge", "nav_judge", ":material/edit_note:"),
                   ("review", "nav_review", ":material/fact_check:")]
LEAD_PAGES = [
    ("dashboard", "nav_dashboard", ":material/monitoring:"),
    ("overview", "nav_overview", ":material/checklist:"),
    ("import_data", "nav_import", ":material/upload_file:"),
    ("assign", "nav_assign", ":material/assignment_ind:"),
    ("agreement", "nav_agreement", ":material/handshake:"),
    ("adjudicate", "nav_adjudicate", ":material/balance:"),
    ("review_assign", "nav_review_assign", ":material/assignment_ind:"),
    ("review_adjudicate", "nav_review_adjudicate", ":material/rule:"),
    ("export", "nav_export", ":material/download:"),
    ("users", "nav_users", ":material/group:"),
    ("audit", "nav_audit", ":material/history:"),
]
DEFAULT_PAGE = "judge"


def pages_for(is_lead: bool) -> list[tuple[str, str, str]]:
    return ANNOTATOR_PAGES + (LEAD_PAGES if is_lead else [])


def all_addresses() -> list[str]:
    return [name for name, _, _ in ANNOTATOR_PAGES + LEAD_PAGES]
