"""Where a run of the Streamlit script spends its time (bench/bench_login.py reads it).

Off unless ``$RELJUDGE_PROFILE`` names a folder: then every run of workbench.py appends
one JSON line to ``runs.jsonl`` there — its wall-clock start and end (``time.time()``,
so the benchmark can line them up with the browser's ``performance.timeOrigin``), the
page it ran, how it ended (done, rerun, stop) and how long each phase took
(``time.perf_counter``); every run of the judging widget (a fragment: alone when it
reruns, inside the script's run otherwise) appends the same kind of line to
``fragments.jsonl`` — every full garbage collection of the process goes to
``gc.jsonl`` (Streamlit runs one after each script run: ``runner.postScriptGC``), and
with ``$RELJUDGE_PROFILE_CPROFILE=1`` a cProfile of each run is written as
``run-<n>.prof`` (the script runs in a thread of its own, so one profiler per run sees
only that run). Off, :func:`start` costs one environment lookup per run.
"""

from __future__ import annotations

import gc
import itertools
import json
import os
import threading
import time
from pathlib import Path

ENV = "RELJUDGE_PROFILE"
CPROFILE_ENV = "RELJUDGE_PROFILE_CPROFILE"
_COUNTER = itertools.count(1)
_WRITE = threading.Lock()
_GC: dict = {}


class _Off:
    def phase(self, name: str) -> None:
        pass

    def note(self, **fields) -> None:
        pass

    def finish(self, ended: str = "done") -> None:
        pass


OFF = _Off()


def _append(path: Path, record: dict) -> None:
    with _WRITE, open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(record, ensure_ascii=False) + "\n")


def _watch_gc(folder: Path) -> None:
    """Log every collection of the oldest generation (once per process)."""
    if _GC:
        return

    def callback(event: str, info: dict) -> None:
        if info.get("generation") != 2:
            return
        if event == "start":
            _GC["t0"], _GC["wall"] = time.perf_counter(), time.time()
        elif "t0" in _GC:
            _append(
                folder / "gc.jsonl",
                {
                    "start": _GC["wall"],
                    "ms": (time.perf_counter() - _GC.pop("t0")) * 1000,
                    "collected": info.get("collected"),
                },
            )

    _GC["callback"] = callback
    gc.callbacks.append(callback)


class _Run:
    def __init__(self, folder: Path, log: str = "runs.jsonl"):
        self.folder, self.log = folder, log
        self.n = next(_COUNTER)
        self.fields: dict = {}
        self.phases: dict[str, float] = {}
        self.current = "setup"
        self.profiler = None
        # the script's runs only: a widget's run inside one would replace its profiler
        if os.environ.get(CPROFILE_ENV) == "1" and log == "runs.jsonl":
            import cProfile

            self.profiler = cProfile.Profile()
            self.profiler.enable()
        self.start_wall = time.time()
        self.start = self.last = time.perf_counter()

    def phase(self, name: str) -> None:
        """The time from here to the next phase (or the end) is spent on ``name``."""
        now = time.perf_counter()
        self.phases[self.current] = self.phases.get(self.current, 0.0) + (now - self.last) * 1000
        self.current, self.last = name, now

    def note(self, **fields) -> None:
        self.fields.update(fields)

    def finish(self, ended: str = "done") -> None:
        self.phase("")
        self.phases.pop("", None)
        end = time.perf_counter()
        if self.profiler is not None:
            self.profiler.disable()
            self.profiler.dump_stats(str(self.folder / f"run-{self.n}.prof"))
        _append(
            self.folder / self.log,
            {
                "n": self.n,
                "start": self.start_wall,
                "end": self.start_wall + (end - self.start),
                "ms": (end - self.start) * 1000,
                "ended": ended,
                "phases": self.phases,
                **self.fields,
            },
        )


def start(log: str = "runs.jsonl"):
    """The current run's recorder (a no-op unless $RELJUDGE_PROFILE is set). ``log``: the
    file of the folder it appends to (the judging widget's own runs go to
    ``fragments.jsonl``, beside the script's)."""
    folder = os.environ.get(ENV)
    if not folder:
        return OFF
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    _watch_gc(path)
    return _Run(path, log)


def ended(exc: BaseException | None) -> str:
    """How a run ended, from the exception that ended it (Streamlit ends st.rerun,
    st.switch_page and st.stop with exceptions of its own)."""
    if exc is None:
        return "done"
    name = type(exc).__name__
    return {"RerunException": "rerun", "StopException": "stop"}.get(name, name)
