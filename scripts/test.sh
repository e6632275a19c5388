#!/usr/bin/env bash
# Runs the whole test suite, after making the Debian packages and the virtual environment of
# the tests' oracles ready (scripts/install-dependencies.sh, scripts/test-venv.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-dependencies.sh
scripts/test-venv.sh
export MSGC_APPLE_LIBRARY_PYTHON="$PWD/.build-venv/bin/python"
export MSGC_TRANSLATE_TOOLKIT_BIN="$PWD/.build-venv/bin"
# Swift Testing starts every test at once and reports each one's time from its start, so a test
# that waited for a thread (Tests/TestSupport/OwnThreads.swift) would report the wait as its
# own. At most as many tests run at once as WaitingThreads has threads (twice the cores, at
# least 4): a test starts when it can run, and its reported time is its own.
cores=$(nproc)
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-$(( cores * 2 > 4 ? cores * 2 : 4 ))}

swift test "$@"
