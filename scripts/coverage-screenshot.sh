#!/bin/sh
# Renders `msgc coverage --format html` for a content tree and photographs it with headless
# Chromium (Debian: apt-get install chromium), for docs/coverage.png.
#   scripts/coverage-screenshot.sh [CONTENT_DIR] [OUTPUT_PNG] [extra msgc coverage options…]
# docs/coverage.png: scripts/coverage-screenshot.sh content docs/coverage.png --state docs/example-state.json
set -eu
cd "$(dirname "$0")/.."
content=${1:-content}
output=${2:-docs/coverage.png}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift
swift build --scratch-path "${MSGC_SCRATCH:-.build}" --product msgc >/dev/null
msgc="${MSGC_SCRATCH:-.build}/debug/msgc"
page=$(mktemp --suffix=.html)
trap 'rm -f "$page"' EXIT
"$msgc" coverage --content "$content" --format html --out "$page" --quiet "$@"
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --screenshot="$(realpath -m "$output")" --window-size=1160,520 "file://$page" 2>/dev/null
echo "wrote $output"
