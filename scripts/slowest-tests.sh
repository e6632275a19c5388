#!/usr/bin/env bash
# Runs the whole suite one test at a time and lists the slowest tests by their own time.
#
#   scripts/slowest-tests.sh [COUNT]      (default 15)
#
# In a parallel run Swift Testing starts every test at once and reports each one's time from
# that start, so a test that waited for a thread reports the wait as its own. Run one at a
# time, a test's time is its own work. Uses the build and the oracles of scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-15}
scripts/install-dependencies.sh
scripts/test-venv.sh
export MSGC_APPLE_LIBRARY_PYTHON="$PWD/.build-venv/bin/python"
export MSGC_TRANSLATE_TOOLKIT_BIN="$PWD/.build-venv/bin"
swift build --build-tests
events=$(mktemp)
trap 'rm -f "$events"' EXIT
status=0
"$(swift build --show-bin-path)/msgcPackageTests.xctest" --testing-library swift-testing \
    --experimental-maximum-parallelization-width 1 \
    --event-stream-output-path "$events" --event-stream-version 0 >/dev/null 2>&1 || status=$?
python3 - "$events" "$count" <<'PYTHON'
import json, sys
started, ended, suites = {}, {}, set()
for line in open(sys.argv[1], encoding="utf-8"):
    record = json.loads(line)
    payload = record["payload"]
    if record["kind"] == "test" and payload.get("kind") == "suite":
        suites.add(payload["id"])
    elif record["kind"] == "event" and payload["kind"] in ("testStarted", "testEnded"):
        (started if payload["kind"] == "testStarted" else ended)[payload["testID"]] = payload["instant"]["absolute"]
times = sorted(((ended[t] - started[t], t) for t in started if t in ended and t not in suites), reverse=True)
print(f"{len(times)} tests, {sum(s for s, _ in times):.1f} s in all, one at a time")
for seconds, test in times[: int(sys.argv[2])]:
    print(f"{seconds:7.1f} s  {test.split('/')[0]}.{test.split('/')[1] if '/' in test else ''}")
PYTHON
exit "$status"
