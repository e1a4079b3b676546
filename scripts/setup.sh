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
python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
