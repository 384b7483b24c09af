"""reljudge — relevance-judgment workbench for evaluating RAG retrieval.

For notebooks: ``reljudge.evaluate(qrels, run, ["nDCG@10"])`` on DataFrames (ir_measures'
column names) or files, and ``reljudge.open_campaign(path)`` for a campaign's judgments,
qrels and evaluation (:mod:`reljudge.notebook`).
"""

__version__ = "0.1.0"
__all__ = ["evaluate", "open_campaign", "__version__"]


def __getattr__(name: str):
    # Loaded on first use (PEP 562): `import reljudge` and the CLI start without pandas.
    if name in ("evaluate", "open_campaign", "Campaign"):
        from reljudge import notebook

        return getattr(notebook, name)
    raise AttributeError(f"module 'reljudge' has no attribute {name!r}")


def __dir__() -> list[str]:
    # Without it, dir(reljudge) and tab completion miss the lazily loaded front door.
    return sorted(set(globals()) | set(__all__) | {"Campaign"})
