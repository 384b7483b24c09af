"""``reljudge`` run in the test's own process, through ``main(argv)``: the same command,
output and exit code as ``python -m reljudge …`` without the ~1 s a new Python costs
(issue 38 §1). Tests whose subject is the process itself (a kill, a lock held by another
process, a closed pipe, the console script) start one instead."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys


def run_cli(*args, cwd=None, input: str | None = None) -> subprocess.CompletedProcess:
    """(returncode, stdout, stderr) of ``reljudge *args`` as a CompletedProcess, run in this
    process with its working directory ``cwd`` and ``input`` on stdin. A Python exception
    that escapes the command is raised here (in a process it would have been a traceback)."""
    from reljudge.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    stdin = sys.stdin
    try:
        if cwd is not None:
            os.chdir(cwd)
        sys.stdin = io.StringIO(input or "")
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main([str(a) for a in args])
            except SystemExit as exc:  # argparse's refusals and --help
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    finally:
        sys.stdin = stdin
        os.chdir(here)
    return subprocess.CompletedProcess(["reljudge", *map(str, args)], code, out.getvalue(), err.getvalue())
