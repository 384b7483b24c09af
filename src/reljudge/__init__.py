"""reljudge — relevance-judgment workbench for evaluating RAG retrieval."""

__version__ = "0.1.0"
