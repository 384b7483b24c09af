"""Issue 37 §2: the OpenAPI description of the ``/api/v1`` routes is built from the route
table (reljudge.web.api.openapi): every route described, no description without its route."""

from __future__ import annotations

import pytest
from starlette.routing import Route

from reljudge.web import api, routes


def _api_routes() -> set[tuple[str, str]]:
    return {
        (method, r.path)
        for r in routes.routes()
        if r.path.startswith("/api/v1/")
        for method in (r.methods or set()) - {"HEAD"}
    }


def test_the_description_names_exactly_the_apps_api_routes():
    document = api.openapi([r for r in routes.routes()])  # the app's whole route table
    described = {(method.upper(), path) for path, ops in document["paths"].items() for method in ops}
    assert described == _api_routes() and ("POST", "/api/v1/cli") in described
    assert document["openapi"].startswith("3.")
    for path, ops in document["paths"].items():
        for op in ops.values():
            assert op["summary"] and "200" in op["responses"], path
    refs = {
        ref.rsplit("/", 1)[1]
        for ref in _refs(document["paths"]) | _refs(document["components"]["schemas"])
        if ref.startswith("#/components/schemas/")
    }
    assert refs <= set(document["components"]["schemas"])  # every $ref resolves


def _refs(value) -> set[str]:
    if isinstance(value, dict):
        found = {value["$ref"]} if isinstance(value.get("$ref"), str) else set()
        return found.union(*(_refs(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_refs(v) for v in value)) if value else set()
    return set()


async def _nothing(request):  # pragma: no cover — never called
    return None


def test_a_route_added_without_its_description_fails():
    with pytest.raises(LookupError, match="no OpenAPI description of POST /api/v1/new"):
        api.openapi([*api.routes(), Route("/api/v1/new", _nothing, methods=["POST"])])


def test_a_description_of_a_route_that_does_not_exist_fails(monkeypatch):
    monkeypatch.setitem(api.DESCRIBED, ("GET", "/api/v1/gone"), {"summary": "x", "responses": {}})
    with pytest.raises(LookupError, match="/api/v1/gone"):
        api.openapi()
    # and a route taken out of the table, its description left behind, too
    monkeypatch.delitem(api.DESCRIBED, ("GET", "/api/v1/gone"))
    with pytest.raises(LookupError, match="/api/v1/judge"):
        api.openapi([r for r in api.routes() if r.path != "/api/v1/judge"])
