#!/usr/bin/env bash
# Install everything the test suite needs and run it (the README's test command).
# Browser tests drive Debian's chromium (Playwright cannot download browsers here);
# the PostgreSQL tests run Debian's postgresql server binaries.
set -euo pipefail
cd "$(dirname "$0")/.."

# The PostgreSQL tests start their own server from Debian's postgresql binaries
# (/usr/lib/postgresql/*/bin); they fail, not skip, when those are missing.
MISSING=""
if [ ! -x /usr/bin/chromium ]; then MISSING="$MISSING chromium"; fi
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then MISSING="$MISSING postgresql"; fi
if [ -n "$MISSING" ]; then
    SUDO=""
    if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $MISSING >/dev/null
fi

python -m pip install -q -e '.[test]'
exec python -m pytest "$@"
