"""What every benchmark here shares: the machine's description and writing its own
section of bench/RESULTS.md (between `<!-- NAME:begin -->` and `<!-- NAME:end -->`,
leaving the other benchmarks' sections alone)."""

from __future__ import annotations

import platform
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def markers(name: str) -> tuple[str, str]:
    return f"<!-- {name}:begin -->", f"<!-- {name}:end -->"


def write_section(name: str, body: str, path: Path = RESULTS) -> None:
    """Replace the text between NAME's markers with ``body`` (appended if missing)."""
    begin, end = markers(name)
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmark results\n"
    block = f"{begin}\n{body.rstrip()}\n{end}"
    if begin in text and end in text:
        text = text[:text.index(begin)] + block + text[text.index(end) + len(end):]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    path.write_text(text, encoding="utf-8")
