#!/usr/bin/env bash
# Runs the whole test suite, after making the Debian packages and the virtual environment of
# the tests' oracles ready (scripts/install-dependencies.sh, scripts/test-venv.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-dependencies.sh
scripts/test-venv.sh
export MSGC_APPLE_LIBRARY_PYTHON="$PWD/.build-venv/bin/python"
export MSGC_TRANSLATE_TOOLKIT_BIN="$PWD/.build-venv/bin"

swift test "$@"
