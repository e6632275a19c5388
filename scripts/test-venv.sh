#!/usr/bin/env bash
# Makes .build-venv, the throw-away virtual environment of the tests' oracles: Apple's Python
# client library (every bundled message against its UploadMessageRequestBody model, signed
# realtime requests), translate-toolkit (it must read the XLIFF msgc writes), and scipy and
# statsmodels (the experiment report's statistics are checked against them). Does nothing
# when the environment already has them. scripts/test.sh runs it; CI runs it early, in the
# background, while the fuzz replay compiles.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import appstoreserverlibrary, translate, scipy, statsmodels" 2>/dev/null; then
    python3 -m venv "$venv"
    # --no-compile: pip would byte-compile every module of these packages (pandas, scipy and
    # statsmodels hold thousands), about 20 s of CPU that CI's build is waiting for; Python
    # compiles the few the tests import when they first import them.
    "$venv/bin/pip" install --quiet --no-compile --disable-pip-version-check "app-store-server-library==3.1.2" \
        "translate-toolkit==3.20.4" "scipy==1.17.1" "statsmodels==0.15.0"
fi
