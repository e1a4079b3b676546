#!/usr/bin/env bash
# The test command of README.md: the whole suite, slow tests included.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pytest -q "$@"
