#!/usr/bin/env bash
# Builds msgc and runs its main job on the example content tree: `msgc build` for sandbox.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-dependencies.sh
scripts/build-release.sh
.build/release/msgc build --content content --environment sandbox "$@"
