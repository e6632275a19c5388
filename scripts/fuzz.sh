#!/usr/bin/env bash
# Builds and runs one of msgc's libFuzzer harnesses (Fuzz/*.swift) under AddressSanitizer.
#
#   scripts/fuzz.sh TARGET SECONDS [libFuzzer options…]
#   scripts/fuzz.sh build TARGET        only build .build-fuzzer/fuzz-TARGET
#   scripts/fuzz.sh replay              build all six and run each once, under AddressSanitizer
#                                       and LeakSanitizer, on the seed corpus, the adversarial
#                                       files (Tests/msgcTests/Adversarial, plus 100,000-deep
#                                       nesting and 50 MB of garbage made here) and every
#                                       reproducer in Fuzz/Regressions/TARGET/; CI runs this
#
# TARGET is one of: xliff (the XLIFF importer), yaml (message sources and msgc.yaml),
# bcp47 (the language tag parser and checker), png (the PNG reader), realtime (Apple's realtime
# request: body, JWS, header, certificates, chain, signature, payload, answer), notifications
# (App Store Server Notifications V2: body, the outer JWS and the nested signedTransactionInfo
# and signedRenewalInfo, their chains, signatures and payloads).
# SECONDS is the CPU time to spend: the fuzzer is stopped with SIGINT once its own process has
# used that much user + system CPU (read from /proc), so a loaded machine still gets the
# stated amount of fuzzing. libFuzzer then prints its final statistics.
#
# The modules are built once with `swift build` into .build-fuzzer (instrumented with
# -sanitize=fuzzer,address; the replay's with -sanitize=address alone); the harness is linked
# against their object files with swiftc.
# The normal `swift build` and `swift test` never see Fuzz/.
#
# Everything a run makes goes under .build-fuzz-runs/TARGET/ (git-ignored):
#   corpus/      the working corpus, seeded from the test fixtures and the example content
#   artifacts/   crash-*, timeout-*, leak-*, oom-* reproducers
#   fuzz.log     libFuzzer's output of the latest run
#   runs.txt     one line per run: when, CPU seconds used, exit status, executions, coverage
#
# MSGC_FUZZ_PREBUILT=1 runs the binary built earlier instead of building again.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

usage() {
    echo "usage: scripts/fuzz.sh xliff|yaml|bcp47|png|realtime|notifications SECONDS [libFuzzer options…] | build TARGET | replay" >&2
    exit 2
}

harness_for() {
    case "$1" in
        xliff) echo XLIFFImporterFuzzer ;;
        yaml) echo MessageSourceFuzzer ;;
        bcp47) echo LanguageTagFuzzer ;;
        png) echo PNGReaderFuzzer ;;
        realtime) echo RealtimeRequestFuzzer ;;
        notifications) echo NotificationFuzzer ;;
        *) usage ;;
    esac
}

scratch=.build-fuzzer
# Fuzzing runs an optimized build (more executions a second). `replay` runs each file once,
# so it builds without optimization: about half the compile time, which is most of what CI
# spends on it (MSGC_FUZZ_CONFIGURATION=release replays with the fuzzing build instead).
configuration=release
if [ "${1:-}" = replay ]; then configuration=${MSGC_FUZZ_CONFIGURATION:-debug}; fi
# The replay's modules carry AddressSanitizer only: it runs each file once and needs no coverage
# counters (the harness itself is still linked with libFuzzer, which reads the files); that is
# about a tenth less compiling. Fuzzing instruments them for coverage too.
case "$configuration" in
    release) optimization=-O sanitizers=fuzzer,address c_sanitizers=fuzzer-no-link,address ;;
    debug) optimization=-Onone sanitizers=address c_sanitizers=address ;;
    *) usage ;;
esac
build_dir=$scratch/$configuration

# One module and what it imports, instrumented, into $build_dir.
build_module() {
    # The packages msgc depends on are checked out once: a fresh $scratch takes the normal
    # build's checkouts (a copy: SwiftPM checks them against Package.resolved, and resolves
    # again only where they differ) instead of cloning all of them a second time.
    if [ ! -e "$scratch/workspace-state.json" ] && [ -f .build/workspace-state.json ] && [ -d .build/checkouts ]; then
        mkdir -p "$scratch"
        cp -a .build/checkouts .build/workspace-state.json "$scratch/"
        if [ -d .build/repositories ]; then cp -a .build/repositories "$scratch/"; fi
    fi
    swift build -c "$configuration" --scratch-path "$scratch" --target "$1" \
        -Xswiftc "-sanitize=$sanitizers" -Xcc "-fsanitize=$c_sanitizers" >&2
}

build() {
    local target=$1 harness
    harness=$(harness_for "$target")
    [ -n "${MSGC_FUZZ_BUILT:-}" ] || scripts/install-dependencies.sh
    # The XLIFF, YAML, BCP 47 and PNG harnesses use XLIFF, Parser (with Yams), LanguageTags,
    # Diagnostics and Model; the realtime and notifications ones Realtime, Bundle (with libcrypto)
    # and what they import, and the test PKI's root they both trust (Fuzz/TestPKI.swift).
    local built=(XLIFF Parser) linked=(Model Diagnostics LanguageTags Parser XLIFF Yams CYaml) libraries=(-lxml2) sources=()
    if [ "$target" = realtime ] || [ "$target" = notifications ]; then
        built=(Realtime) linked=(Model Diagnostics LanguageTags Bundle CFileSystem Realtime) libraries=(-lcrypto) sources=(Fuzz/TestPKI.swift)
    fi
    local module
    for module in "${built[@]}"; do
        # `replay` builds every module once before linking its six harnesses.
        [[ " ${MSGC_FUZZ_BUILT:-} " == *" $module "* ]] && continue
        build_module "$module"
    done
    local objects=() modulemaps=()
    for module in "${linked[@]}"; do
        while IFS= read -r object; do
            # An object whose source file has since moved to another module is left behind
            # by SwiftPM: linking it too would define its symbols twice.
            if [[ -d Sources/$module && $object == *.swift.o ]] &&
                [[ -z $(find "Sources/$module" -name "$(basename "$object" .o)" -print -quit) ]]; then
                continue
            fi
            objects+=("$object")
        done < <(find "$build_dir/$module.build" -name "*.o" | sort)
    done
    while IFS= read -r map; do modulemaps+=(-Xcc "-fmodule-map-file=$map"); done < <(
        find "$build_dir" Sources/CLibXML2 Sources/CCrypto "$scratch/checkouts/Yams/Sources/CYaml" -name module.modulemap 2>/dev/null)
    # SwiftPM writes a C target's module map beside its objects (Bundle imports CFileSystem).
    if [ "$target" = realtime ] || [ "$target" = notifications ]; then modulemaps+=(-Xcc "-fmodule-map-file=$build_dir/CFileSystem.build/module.modulemap"); fi
    local xml_flags=()
    for flag in $(pkg-config --cflags libxml-2.0); do xml_flags+=(-Xcc "$flag"); done
    # lld, from the toolchain: gold warns about every ASan helper symbol it cannot export.
    swiftc "$optimization" -parse-as-library -sanitize=fuzzer,address -use-ld=lld \
        -I "$build_dir/Modules" -I "$scratch/checkouts/Yams/Sources/CYaml/include" "${modulemaps[@]}" "${xml_flags[@]}" \
        "Fuzz/$harness.swift" "${sources[@]}" "${objects[@]}" "${libraries[@]}" \
        -o "$scratch/fuzz-$target" >&2
    echo "$scratch/fuzz-$target"
}

# Seeds: the files of the right kind from the test fixtures and the example content.
seed() {
    local target=$1 corpus=$2
    mkdir -p "$corpus"
    case "$target" in
        xliff) find Tests content -type f \( -name '*.xlf' -o -name '*.xliff' \) -exec cp -n {} "$corpus/" \; ;;
        yaml) find Tests content -type f \( -name '*.yaml' -o -name '*.yml' \) \
                  -exec sh -c 'for f; do cp "$f" "$0/$(echo "$f" | tr / _)"; done' "$corpus" {} + ;;
        png) find Tests content -type f -name '*.png' \
                 -exec sh -c 'for f; do cp "$f" "$0/$(echo "$f" | tr / _)"; done' "$corpus" {} + ;;
        bcp47)
            # Every quoted tag-like string in the language tag tests, one file each.
            grep -ohE '"[A-Za-z0-9_.@-]{1,40}"' Tests/LanguageTagsTests/*.swift Sources/LanguageTags/AppStoreLocale.swift \
                | tr -d '"' | sort -u | while IFS= read -r tag; do
                    printf '%s' "$tag" > "$corpus/tag-$(printf '%s' "$tag" | sha1sum | cut -c1-12)"
                done ;;
        # Bodies scripts/realtime-requests.py signed with the root the harness trusts (valid
        # ones, and one of several kinds of refusal).
        realtime) cp Fuzz/Seeds/realtime/*.json "$corpus/" ;;
        # Notifications scripts/realtime-notifications.py signed with the same root: the valid
        # ones (each relevant type, retries, an expired leaf, members of the future) and one per
        # refusal, of the body, the outer JWS and each nested one.
        notifications) cp Fuzz/Seeds/notifications/valid/*.json Fuzz/Seeds/notifications/hostile/*.json "$corpus/" ;;
    esac
}

# Runs every harness once on every file it should survive; exits non-zero on the first finding.
replay() {
    local work=.build-fuzz-runs/replay target binary
    rm -rf "$work"
    mkdir -p "$work/generated"
    python3 - "$work/generated" <<'PYTHON'
import os, random, sys
out = sys.argv[1]
def write(name, data):
    with open(os.path.join(out, name), 'wb') as f:
        f.write(data)
write('deep.xliff', b'<?xml version="1.0"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'
      + b'<g>' * 100000 + b'</g>' * 100000 + b'</xliff>\n')
write('deep-flow.yaml', b'messages: ' + b'[' * 100000 + b']' * 100000 + b'\n')
write('deep-block.yaml', b'messages:\n' + b''.join(b' ' * (i % 200) + b'- ' for i in range(100000)) + b'x\n')
write('garbage.bin', random.Random(7).randbytes(50_000_000))
PYTHON
    scripts/install-dependencies.sh
    local module
    for module in XLIFF Parser Realtime; do
        build_module "$module"
    done
    export MSGC_FUZZ_BUILT="XLIFF Parser Realtime"
    for target in xliff yaml bcp47 png realtime notifications; do
        binary=$(build "$target")
        rm -rf "$work/$target"
        seed "$target" "$work/$target"
        case "$target" in
            xliff) cp Tests/msgcTests/Adversarial/*.xliff "$work/generated/deep.xliff" "$work/$target/" ;;
            yaml) cp Tests/msgcTests/Adversarial/*.yaml "$work/generated/"deep-*.yaml "$work/$target/" ;;
            png) cp Tests/msgcTests/Adversarial/*.png "$work/$target/" ;;
        esac
        cp "$work/generated/garbage.bin" "$work/$target/"
        if [ -d "Fuzz/Regressions/$target" ]; then cp "Fuzz/Regressions/$target/"* "$work/$target/"; fi
        echo "replay $target: $(find "$work/$target" -type f | wc -l) files" >&2
        # A file that hangs is bounded by processor time, not by the clock: CI runs the replay
        # at the lowest priority beside the tests, where a file that takes 3 s on an idle core
        # can wait more than a minute for one (libFuzzer's -timeout counts the clock). Every
        # target's files together take under 5 s of processor time; past 120 s the kernel stops
        # the harness (SIGXCPU), and the log's last "Running:" line names the file. The clock
        # bound stays, far off, for a harness that would block without computing.
        local status=0
        ( ulimit -t 120; ASAN_OPTIONS=detect_leaks=1 exec "$binary" -timeout=1800 -rss_limit_mb=2048 "$work/$target/"* ) \
            >"$work/$target.log" 2>&1 || status=$?
        if [ "$status" -ne 0 ]; then
            tail -n 40 "$work/$target.log" >&2
            if [ "$status" -eq 152 ]; then echo "replay $target: a file used more than 120 s of processor time" >&2; fi
            echo "replay $target: FAILED (log: $work/$target.log)" >&2
            return 1
        fi
    done
    echo "replay: every file ran clean under AddressSanitizer and LeakSanitizer" >&2
}

# The whole script is read before any of it runs (bash reads a script as it executes it, so a
# run that lasts half an hour would otherwise pick up an edit made to this file meanwhile).
main() {
[ $# -ge 1 ] || usage
if [ "$1" = replay ]; then replay; return 0; fi
[ $# -ge 2 ] || usage
if [ "$1" = build ]; then build "$2" >/dev/null; return 0; fi
target=$1 seconds=$2
shift 2
harness_for "$target" >/dev/null
if [ "${MSGC_FUZZ_PREBUILT:-0}" = 1 ] && [ -x "$scratch/fuzz-$target" ]; then
    binary=$scratch/fuzz-$target
else
    binary=$(build "$target")
fi

run=.build-fuzz-runs/$target
mkdir -p "$run/corpus" "$run/artifacts"
seed "$target" "$run/corpus"
# Swift's runtime keeps metadata caches for the life of the process; those are not leaks of
# msgc's, and LeakSanitizer does not report them (see FUZZING.md). Real leaks fail the run.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}

"$root/$binary" "$run/corpus" -artifact_prefix="$run/artifacts/" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 "$@" >"$run/fuzz.log" 2>&1 &
pid=$!
trap 'kill -INT $pid 2>/dev/null || true' INT TERM
ticks=$(getconf CLK_TCK)
cpu=0
while kill -0 "$pid" 2>/dev/null; do
    # Fields 14 and 15 of /proc/PID/stat: user and system time in clock ticks.
    stat=$(cat "/proc/$pid/stat" 2>/dev/null) || break
    fields=(${stat##*) })
    cpu=$(( (fields[11] + fields[12]) / ticks ))
    if [ "$cpu" -ge "$seconds" ]; then kill -INT "$pid"; break; fi
    sleep 5
done
status=0
wait "$pid" || status=$?
executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$run/fuzz.log" | tail -n 1)
coverage=$(grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[^ ]+' "$run/fuzz.log" | tail -n 1)
echo "$(date -u +%FT%TZ) cpu_seconds=$cpu exit_status=$status executions=${executions:-?} ${coverage:-}" >> "$run/runs.txt"
tail -n 20 "$run/fuzz.log"
echo "$target: $cpu s CPU, exit status $status; log $run/fuzz.log, artifacts $run/artifacts/"
return "$status"
}

main "$@"
exit $?
