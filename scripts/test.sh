#!/usr/bin/env bash
# Runs the whole test suite. Also installs Apple's Python client library into a throw-away
# virtual environment, so the end-to-end tests can check every bundled message against
# Apple's own UploadMessageRequestBody model.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-dependencies.sh

venv=.build-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import appstoreserverlibrary" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "app-store-server-library==3.1.2"
fi
export MSGC_APPLE_LIBRARY_PYTHON="$PWD/$venv/bin/python"

swift test "$@"
