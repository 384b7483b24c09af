#!/usr/bin/env bash
# Install everything the test suite needs and run it (the README's test command).
# Browser tests drive Debian's chromium (Playwright cannot download browsers here).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
    SUDO=""
    if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

python -m pip install -q -e '.[test]'
exec python -m pytest "$@"
