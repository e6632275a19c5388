#!/usr/bin/env bash
# Builds msgc as it is released: optimized, with the Swift runtime and Foundation linked in
# statically. Extra arguments go to `swift build` (for example `--scratch-path DIR`).
#
#   scripts/build-release.sh [msgc | msgc-realtime] [swift build options…]
#
# Only the product named is built (msgc by default): msgc, the compiler and everything that
# talks to Apple, needs none of the realtime server's stack (SwiftNIO, HummingbirdCore), so the README's first command compiles none of it; `msgc-realtime`, the
# server that `msgc realtime serve` runs, is built beside it with `msgc-realtime`.
#
# Linked statically, msgc starts in about 5 ms instead of 9: the dynamic loader no longer maps
# and relocates a dozen Swift libraries, and calls into the runtime (every retain and release)
# are direct rather than through the PLT. `msgc lint` on the benchmark's app preset is about
# 7 ms faster (BENCHMARKS.md). lld links it: GNU ld warns about a `mktemp` call inside
# Foundation's static library, which msgc never makes. libxml2 and libcrypto stay shared
# system libraries.
#
# Two link options shorten the start further (`msgc lint` on the app preset: 55.9 -> 54.4 ms
# in alternating runs; the dynamic loader's own time 1.9 -> 0.8 M cycles):
# - `-z pack-relative-relocs` writes the executable's 80,000 relative relocations (the Swift
#   runtime's and Foundation's metadata pointers, which a position-independent executable
#   must relocate at every start) as a 15 KB bitmap (DT_RELR) instead of a 1.9 MB table the
#   loader pages in and walks. The executable still loads at a random address; it needs
#   glibc 2.36 or later (Debian 12), which says so in its version requirements.
# - `--disable-local-rpath` leaves out SwiftPM's `$ORIGIN` run path: with the Swift runtime
#   linked in, there is no library beside the executable to find, and the loader looked for
#   each of its libraries there first (26 failed lookups at every start).
set -euo pipefail
cd "$(dirname "$0")/.."
product=msgc
case "${1:-}" in
    msgc | msgc-realtime) product=$1; shift ;;
esac
exec swift build -c release --product "$product" --static-swift-stdlib --disable-local-rpath \
    -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs "$@"
