"""The address a browser URL names, as Streamlit matches it against the pages' url_path
(the browser tests in test_e2e_navigation.py check the whole round trip)."""

from __future__ import annotations

import pytest

from reljudge.ui import navigation


@pytest.mark.parametrize(
    "url, base, expected",
    [
        ("http://127.0.0.1:8501/judge", "", "judge"),
        ("http://127.0.0.1:8501/judge/", "", "judge"),
        ("http://127.0.0.1:8501/", "", ""),
        ("http://127.0.0.1:8501", "", ""),
        ("https://rj.example.org/team/dashboard", "team", "dashboard"),
        ("https://rj.example.org/team/dashboard", "/team/", "dashboard"),
        ("https://rj.example.org/team", "team", ""),
        ("http://h/%ED%95%9C%EA%B8%80", "", "한글"),
        ("http://h/with%20space", "", "with space"),
        (None, "", None),
        ("", "", None),
    ],
)
def test_address_of_a_url(url, base, expected):
    assert navigation.address(url, base) == expected


@pytest.mark.parametrize(
    "name, ok",
    [("nope", True), ("한글", True), ("with space", True), ("", False), (None, False), ("a/b", False), (" x", False)],
)
def test_which_addresses_can_have_a_page_of_their_own(name, ok):
    assert navigation.can_have_page(name) is ok


def test_every_page_is_reached_at_its_file_name():
    assert navigation.HOME in navigation.all_addresses()
    assert len(set(navigation.all_addresses())) == len(navigation.all_addresses())
