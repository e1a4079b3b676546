#!/usr/bin/env bash
# Install rulebook2game and its development tools into the current Python.
# rlc links engines with the system toolchain: it needs `ld` and libc's crt files.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v ld >/dev/null 2>&1 || [ ! -e /usr/lib/x86_64-linux-gnu/crt1.o ] && [ ! -e /usr/lib/crt1.o ]; then
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
        apt-get update -qq && apt-get install -y -qq binutils libc6-dev gcc >/dev/null
    else
        echo "setup: rlc needs a linker (ld) and libc development files (crt1.o); install binutils and libc6-dev" >&2
        exit 1
    fi
fi
# The tests drive the terminal table through tmux and the web app through Debian's chromium
# (browser builds that download themselves cannot be fetched here).
missing=()
command -v tmux >/dev/null 2>&1 || missing+=(tmux)
[ -x /usr/bin/chromium ] || missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    else
        echo "setup: the tests need ${missing[*]} (Debian packages); install them to run play/serve tests" >&2
    fi
fi
python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
