"""Where this Streamlit server listens, for the runtime file the CLI reads (docs/served.md).
Here because only reljudge.ui imports Streamlit; reljudge.web.api asks it from the lifespan."""

from __future__ import annotations


def listening() -> tuple[str, int, str]:
    """(host, port, base URL path) a client on this machine reaches: Streamlit's address (a
    wildcard becomes loopback), its port (set before the lifespan runs, a retried port
    included) and its ``server.baseUrlPath`` ("" or "/prefix")."""
    from streamlit import config

    address = (config.get_option("server.address") or "").strip()
    if address in ("", "0.0.0.0"):
        address = "127.0.0.1"
    elif address == "::":
        address = "::1"
    base = (config.get_option("server.baseUrlPath") or "").strip("/")
    return address, int(config.get_option("server.port")), f"/{base}" if base else ""
