#!/usr/bin/env bash
# Runs the whole test suite. Also installs Apple's Python client library and translate-toolkit
# into a throw-away virtual environment, so the end-to-end tests can check every bundled
# message against Apple's own UploadMessageRequestBody model and that translate-toolkit reads
# the XLIFF msgc writes.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-dependencies.sh

venv=.build-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import appstoreserverlibrary, translate" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "app-store-server-library==3.1.2" "translate-toolkit==3.20.4"
fi
export MSGC_APPLE_LIBRARY_PYTHON="$PWD/$venv/bin/python"
export MSGC_TRANSLATE_TOOLKIT_BIN="$PWD/$venv/bin"

swift test "$@"
