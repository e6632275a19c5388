#!/usr/bin/env bash
# Builds msgc as it is released: optimized, with the Swift runtime and Foundation linked in
# statically. Extra arguments go to `swift build` (for example `--scratch-path DIR`).
#
# Linked statically, msgc starts in about 5 ms instead of 9: the dynamic loader no longer maps
# and relocates a dozen Swift libraries, and calls into the runtime (every retain and release)
# are direct rather than through the PLT. `msgc lint` on the benchmark's app preset is about
# 7 ms faster (BENCHMARKS.md). lld links it: GNU ld warns about a `mktemp` call inside
# Foundation's static library, which msgc never makes. libxml2 and libcrypto stay shared
# system libraries.
set -euo pipefail
cd "$(dirname "$0")/.."
exec swift build -c release --product msgc --static-swift-stdlib -Xswiftc -use-ld=lld "$@"
