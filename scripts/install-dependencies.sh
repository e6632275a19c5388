#!/usr/bin/env bash
# Installs the Debian packages msgc builds against, when they are missing.
# msgc needs libxml2-dev (XLIFF), libssl-dev (libcrypto: SHA-1, SHA-256, the ES256 tokens of
# msgc apply) and libcurl4-openssl-dev (libcurl's header for msgc apply's HTTPS; the library
# itself is loaded when apply first sends a request), libsqlite3-dev and libpq-dev (the experiment
# store of the realtime server: SQLite and PostgreSQL's client), found through pkg-config; its tests also need zlib1g-dev to write PNG fixtures
# and xmllint (libxml2-utils) to check the XLIFF msgc writes, as the benchmark does. Packages given as arguments are
# installed too when missing (CI adds chromium and a CJK font for the browser tests).
set -euo pipefail

missing=()
for package in libxml2-dev libxml2-utils libssl-dev zlib1g-dev libcurl4-openssl-dev libsqlite3-dev libpq-dev pkg-config "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing ${missing[*]}" >&2
    sudo_cmd=()
    [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi
