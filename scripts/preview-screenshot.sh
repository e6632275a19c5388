#!/bin/sh
# Renders `msgc preview` for the example content and photographs locale pages with headless
# Chromium (Debian: apt-get install chromium fonts-wqy-zenhei), for docs/preview-*.png. The
# pseudo locales are made in a temporary copy of the content, so the example stays clean.
#   scripts/preview-screenshot.sh [LOCALE…]        default: en-US ar-SA ar-XB
set -eu
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- en-US ar-SA ar-XB
swift build --scratch-path "${MSGC_SCRATCH:-.build}" --product msgc >/dev/null
msgc="${MSGC_SCRATCH:-.build}/debug/msgc"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r content "$work/content"
"$msgc" pseudo --content "$work/content" --locale en-XA --quiet
"$msgc" pseudo --content "$work/content" --locale ar-XB --quiet
"$msgc" preview --content "$work/content" --out "$work/preview" --quiet
for locale in "$@"; do
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --screenshot="$(realpath -m "docs/preview-$locale.png")" --window-size=1100,1300 "file://$work/preview/$locale.html" 2>/dev/null
  echo "wrote docs/preview-$locale.png"
done
