#!/usr/bin/env python3
"""Benchmark msgc against the cost of parsing its XLIFF and against translate-toolkit.

Usage: scripts/benchmark.py [--presets app,10x,100x] [--everyday app-edited,app-overflow,10x-edited]
                            [--seed N] [--scratch-path DIR] [--baseline REVISION]

For each preset of scripts/make-benchmark-corpus.py (generated once into .benchmark/corpus/,
and again when the generator or the seed changes) it times, as separate processes:

  msgc lint      --content TREE
  msgc build     --content TREE --environment sandbox --out (a temporary folder)
  xmllint        --stream --noout TREE/translations/*.xliff     what parsing alone costs
  pofilter       -i TREE/translations -o (a temporary folder)   translate-toolkit's checks

each several times after one run that is not counted (the median is reported; lint, build and xmllint
take turns, one run of each at a time), with the wall time from a monotonic clock and
the peak resident memory of the process from getrusage (ru_maxrss). msgc is built in
release mode first, by scripts/build-release.sh; translate-toolkit is installed from PyPI into .benchmark/venv.
With both 10x and 100x, lint, build and xmllint then run on the two presets in turn (ten runs
of 10x back to back, then one of 100x), for how their time grows from one to the other.

Users' trees are not clean, so it also times everyday trees made from the presets (`everyday_tree`):
app-edited (every source header edited, so every translation of it turns stale), app-overflow
(every target of one locale too long: hundreds of errors in one file) and 10x-edited. Each is timed
in every diagnostics format and for `msgc build`, in turn with the same command on the clean tree,
and reported as the ratio of the two (`bench_everyday`). `--everyday ''` leaves them out.

With the app preset it also times `msgc lsp` as an editor drives it (`bench_editor`): the time from
an edit of one message source, and of a translator's 1 MB XLIFF file with hundreds of findings, to
that document's findings, against a clean `msgc lint`.

It also times `msgc apply` (`bench_apply`): a first sandbox release of the example content/
against the test stand-in (Tests/msgcTests/AppleStandIn/standin.py), which enforces Apple's
per-endpoint limits scaled by APPLY_SCALE, with msgc's hidden `--time-scale` set to the same;
reported against the floor Apple's limits allow for the same requests, and the share of
requests answered 429. `--apply-only [--msgc PATH]` times only that, with a binary already
built, and rewrites only its own part of BENCHMARKS.md (between `apply:begin` and `apply:end`).

It also reads 1 and 8 MiB of JSON escapes through `msgc coverage --state` and `msgc lsp`
(`bench_hostile`), and with a baseline through the baseline's msgc too, stopped after a few minutes;
`--hostile-only` times just those and replaces just their part of BENCHMARKS.md.

It also lints a translator's 1 MB XLIFF written on one line that starts with a tab, with tabs,
soft hyphens, LRM/RLM and ZWJ emoji in it and a finding per unit, in every format
(`bench_long_line`): every renderer must stay linear in a line's length. `--long-line-only
[--msgc PATH]` times just that and replaces just its part of BENCHMARKS.md.

It also drives `msgc realtime serve` on loopback with wrk and Apple-style signed requests, beside
the reference responder a team would write today with Apple's Python library
(scripts/realtime-reference-responder.py), on the same load (`bench_realtime`): the most each
answers, latency at 1,000 requests a second, and a burst like Apple's sandbox performance test.
msgc runs there without a store, with `--store sqlite:…` and with `--store postgres://…` (a
throwaway PostgreSQL cluster on loopback; left out, with a line saying so, without PostgreSQL's
server binaries), on a snapshot whose yearly product is an experiment; the servers with a store
then take 200 signed App Store Server Notifications a second, and the decisions and
notifications in each store are counted once it has stopped, against what the server answered.
`--realtime-only [--msgc PATH]` times only that and rewrites only its part of BENCHMARKS.md
(between `realtime:begin` and `realtime:end`); an msgc without `realtime serve` leaves the
reference measured alone.

With `--baseline REVISION` (a git revision of this repository) it builds msgc as it was there, the
same way, in a worktree of its own (.benchmark/baseline), and times both on the app preset's
`msgc lint`, in turn (`bench_baseline`): whether a change kept msgc as fast as it was.

The results, the machine, the tool versions and the targets of BENCHMARKS.md (met or not)
replace the part of BENCHMARKS.md between its `benchmark:begin` and `benchmark:end`
markers; the rest of the file (what the profile showed) is kept as it is. The machine's load
average is recorded too: timings taken while other work runs are slower than the machine is.
"""

import argparse
import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / ".benchmark"
TRANSLATE_TOOLKIT = "translate-toolkit==3.20.4"
# Runs of each command per preset; the median is reported. pofilter takes minutes at 100x.
RUNS = {"app": 7, "10x": 5, "100x": 3}
# Runs of each everyday command and its clean twin: their ratio is held to 1.3, finer than the
# presets' figures, so they get more runs. Five at 10x were too few on a shared machine: one run
# recorded 1.52x for a pair that measured 1.21-1.29x in alternating runs minutes later.
EVERYDAY_RUNS = {"app": 15, "10x": 9}
POFILTER_RUNS = {"app": 3, "10x": 1, "100x": 1}
# Pairs of 10x and 100x timed in turn for the growth from one to the other, and how many runs
# of 10x back to back make one 10x sample: as many as make up one 100x run (`measure_growth`).
GROWTH_PAIRS = 7
GROWTH_BLOCK = 10
BEGIN, END = "<!-- benchmark:begin -->", "<!-- benchmark:end -->"
APPLY_BEGIN, APPLY_END = "<!-- apply:begin -->", "<!-- apply:end -->"
# Apple's sandbox pace (one upload per endpoint every 10 s, configurations ten times as often)
# times this: the stand-in enforces it, and msgc's --time-scale paces itself by it.
APPLY_SCALE = 0.01
APPLY_RUNS = 3


def log(message):
    print(message, file=sys.stderr, flush=True)


def run_quiet(command, **kwargs):
    return subprocess.run(command, check=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kwargs).stdout


def build_msgc(scratch_path, root=ROOT, with_server=False):
    log(f"building msgc (release, {scratch_path})")
    # The release build as scripts/build-release.sh makes it: the binary users run. `msgc realtime serve`
    # runs the msgc-realtime beside it, built the same way when the realtime benchmark needs it.
    products = ["msgc-realtime", "msgc"] if with_server else ["msgc"]
    for product in products:
        subprocess.run([str(root / "scripts" / "build-release.sh"), product, "--scratch-path", str(scratch_path)], cwd=root, check=True,
                       stdout=subprocess.DEVNULL)
    binary = Path(run_quiet(["swift", "build", "-c", "release", "--scratch-path", str(scratch_path), "--show-bin-path"],
                            cwd=root).strip().splitlines()[-1]) / "msgc"
    return binary


def build_baseline(revision):
    """msgc as it was at `revision`, built as `build_msgc` builds it, in a worktree of its own
    (made again when it holds another commit). Returns the binary and the commit."""
    commit = run_quiet(["git", "rev-parse", "--verify", "--end-of-options", revision + "^{commit}"], cwd=ROOT).strip()
    tree = WORK / "baseline"
    if tree.exists() and run_quiet(["git", "rev-parse", "HEAD"], cwd=tree).strip() != commit:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    if not tree.exists():
        subprocess.run(["git", "worktree", "prune"], cwd=ROOT, check=True)
        subprocess.run(["git", "worktree", "add", "--detach", str(tree), commit], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return build_msgc(tree / ".build", root=tree), commit


def pofilter_binary():
    venv = WORK / "venv"
    pofilter = venv / "bin" / "pofilter"
    if not pofilter.exists() or TRANSLATE_TOOLKIT.split("==")[1] not in run_quiet([str(pofilter), "--version"]):
        log(f"installing {TRANSLATE_TOOLKIT} into {venv}")
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", "--disable-pip-version-check", TRANSLATE_TOOLKIT],
                       check=True)
    return pofilter


def corpus(preset, seed):
    """The preset's content tree, generated unless the same generator and seed made it."""
    generator = ROOT / "scripts" / "make-benchmark-corpus.py"
    tree = WORK / "corpus" / preset
    stamp = f"{preset} seed {seed} {hash_file(generator)}"
    stamp_file = WORK / "corpus" / f"{preset}.stamp"
    if not (stamp_file.exists() and stamp_file.read_text() == stamp and tree.exists()):
        log(f"generating the {preset} corpus")
        stamp_file.unlink(missing_ok=True)
        subprocess.run([sys.executable, str(generator), preset, str(tree), "--seed", str(seed)], check=True,
                       stdout=subprocess.DEVNULL)
        stamp_file.write_text(stamp)
    return tree


# The everyday trees: (preset they are made from, what is done to it).
EVERYDAY = {"app-edited": ("app", "edit-headers"), "app-overflow": ("app", "overflow-de-DE"), "10x-edited": ("10x", "edit-headers")}
FORMATS = ("human", "json", "sarif", "github")


def everyday_tree(name, seed):
    """A preset's tree as users have it, with findings (`EVERYDAY`), made from the clean tree.

    edit-headers: the first letter of every source header changes case, as a writer's edit
    would, so the recorded source of every header's translation no longer matches: one stale
    warning (TRN001) per header and locale, 1,950 at app scale. overflow-de-DE: every German
    target is written twice over, as a translator's tool gone wrong would, so nearly every one
    is longer than Apple's limit: an error (LEN001) per unit, some 300 in one file."""
    base, change = EVERYDAY[name]
    clean = corpus(base, seed)
    tree = WORK / "corpus" / name
    stamp = f"{name} from {(WORK / 'corpus' / f'{base}.stamp').read_text()} {hash_file(Path(__file__))}"
    stamp_file = WORK / "corpus" / f"{name}.stamp"
    if stamp_file.exists() and stamp_file.read_text() == stamp and tree.exists():
        return tree
    log(f"making the {name} tree")
    stamp_file.unlink(missing_ok=True)
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(clean, tree)
    if change == "edit-headers":
        for path in sorted((tree / "messages").rglob("*.yaml")):
            text = path.read_text(encoding="utf-8")
            path.write_text(re.sub(r'^(\s*header: ")(.)', lambda m: m.group(1) + m.group(2).swapcase(), text, flags=re.M),
                            encoding="utf-8")
    else:
        path = tree / "translations" / "de-DE.xliff"
        text = path.read_text(encoding="utf-8")
        path.write_text(re.sub(r'(<target[^>]*>)([^<]*)(</target>)', lambda m: m.group(1) + m.group(2) + " " + m.group(2) + m.group(3),
                               text), encoding="utf-8")
    stamp_file.write_text(stamp)
    return tree


def bench_everyday(names, seed, msgc):
    """Each everyday tree's lint in every format and build, each in turn with the same command on
    its clean tree: the ratio says what findings cost."""
    results = {}
    for name in names:
        base, _ = EVERYDAY[name]
        clean, dirty = corpus(base, seed), everyday_tree(name, seed)
        runs = EVERYDAY_RUNS[base]
        log(f"{name}: every format and build, in turn with {base}")
        with tempfile.TemporaryDirectory(prefix="msgc-bench-") as scratch:
            # Each command with findings runs straight after the same command on the clean tree,
            # so that the two runs a ratio is made of are the closest in time (the machine's
            # speed drifts within a round of ten commands, a build among them).
            commands = {}
            for command in FORMATS + ("build",):
                for label, tree in (("clean", clean), ("dirty", dirty)):
                    if command == "build":
                        # Build prints its findings (human) on standard error, as users see them.
                        commands[(label, command)] = (
                            [msgc, "build", "--content", tree, "--environment", "sandbox", "--out", Path(scratch) / label], (0, 1))
                    else:
                        commands[(label, command)] = ([msgc, "lint", "--content", tree, "--format", command], (0, 1))
            timed = measure_in_turn(commands, runs)
            # Beyond Apple's cap the clean tree's build stops on PRJ006 before writing anything,
            # while a tree that ships fewer messages writes its bundle: no ratio of like with like.
            clean_build_wrote = (Path(scratch) / "clean" / "manifest.json").exists()
            findings = json.loads(subprocess.run([msgc, "lint", "--content", dirty, "--format", "json"],
                                                 stdout=subprocess.PIPE, text=True).stdout)["summary"]
        results[name] = {
            "base": base, "runs": runs, "errors": findings["errors"], "warnings": findings["warnings"],
            "clean_build_wrote": clean_build_wrote,
            "commands": {command: {"clean": timed[("clean", command)], "dirty": timed[("dirty", command)]}
                         for command in FORMATS + ("build",)},
        }
    return results


def hash_file(path):
    import hashlib
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def run_once(command, accept=(0,)):
    """Wall seconds (monotonic clock) and peak RSS (bytes, getrusage) of one run of `command`."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in accept:
        raise SystemExit(f"{' '.join(map(str, command))} exited {code}")
    return wall, usage.ru_maxrss * 1024


def measure(command, runs, accept=(0,), warmup=1):
    """Median wall seconds and largest peak RSS (bytes) over `runs` runs of `command`, after
    `warmup` runs that are not counted.

    The warm-up puts the command's input in the page cache, so that every command is timed
    reading the same warm files. Without it the first command of a preset read its files from
    disk and the ones after it did not: on the benchmark machine a kernel daemon (DAMON's
    pageout scheme) evicts files left untouched for a minute, which the 100x files are while
    the smaller presets run."""
    return measure_in_turn({"command": (command, accept)}, runs, warmup)["command"]


def measure_in_turn(commands, runs, warmup=1):
    """`measure` for several commands, {name: (command, accepted exit codes)}, taken in turn:
    one run of each, then one run of each again, `runs` times.

    Timed one after the other, each command's runs fall in a few seconds of their own, and a
    few slow seconds of the machine (its host's other tenants) can slow all of one command's
    runs and none of the next one's: in one run of this script lint on the app preset took
    103 ms against 59 ms for xmllint, and 62 ms against 67 ms for the previous build of msgc
    in runs taken in turn straight after. Taken in turn, such seconds fall on every command
    alike, and the medians and their ratios are of the same machine."""
    for _ in range(warmup):
        for command, _ in commands.values():
            subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    walls = {name: [] for name in commands}
    peaks = {name: [] for name in commands}
    for _ in range(runs):
        for name, (command, accept) in commands.items():
            wall, peak = run_once(command, accept)
            walls[name].append(wall)
            peaks[name].append(peak)
    return {name: {"wall": statistics.median(walls[name]), "peak": max(peaks[name]), "runs": runs} for name in commands}


def measure_growth(commands, pairs, block):
    """How much longer the second of two commands takes than the first, which does a `block`th of
    its work: `pairs` times, `block` runs of the first back to back and then one run of the
    second, after one uncounted run of each. The growth is the ratio of the median run of the
    second to the median of the first's block means; also returned are the lowest and highest
    ratio within a pair, and the ratio of the medians of single runs.

    A ratio of two presets timed minutes apart also measures how the machine changed in
    between (on the benchmark machine the 100x runs come some ten minutes after the 10x ones,
    with pofilter between them, and the same binary's time at 100x moves by 10% from one
    minute to the next); timed in turn, both see the same machine.

    Blocks, because one 100x run is itself a sum: five seconds of the machine, slow moments
    and all, while a 10x run lasts half a second. A burst of the host's other tenants lasting a
    second or two slows several 100x runs a little, which moves their median, and one or two
    10x runs a lot, which the median of single 10x runs leaves out. Ten 10x runs back to back
    last as long as one 100x run and take in the same moments. Over the same runs, the median
    of single runs put the growth 2% higher than the blocks (9.87× against 9.65×, and 9.95×
    against 9.74×, on msgc lint); BENCHMARKS.md shows both."""
    for command in commands:
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    singles, blocks, large = [], [], []
    for _ in range(pairs):
        # 10x and 100x are beyond Apple's cap: lint reports PRJ006 and exits 1.
        runs = [run_once(commands[0], accept=(0, 1))[0] for _ in range(block)]
        singles += runs
        blocks.append(statistics.fmean(runs))
        large.append(run_once(commands[1], accept=(0, 1))[0])
    ratios = [b / a for a, b in zip(blocks, large)]
    return {"growth": statistics.median(large) / statistics.median(blocks), "low": min(ratios), "high": max(ratios),
            "single": statistics.median(large) / statistics.median(singles),
            "small": statistics.median(blocks), "large": statistics.median(large), "pairs": pairs, "block": block}


def bench_growth(seed, msgc, results):
    """Paired runs of 10x and 100x for lint, build and xmllint (see `measure_growth`)."""
    presets = ("10x", "100x")
    trees = [corpus(preset, seed) for preset in presets]
    log(f"{GROWTH_BLOCK} runs of 10x, then one of 100x, {GROWTH_PAIRS} times: the growth from one to the other")
    growth = {}
    with tempfile.TemporaryDirectory(prefix="msgc-bench-") as scratch:
        commands = {
            "lint": [[msgc, "lint", "--content", tree, "--quiet"] for tree in trees],
            "build": [[msgc, "build", "--content", tree, "--environment", "sandbox", "--out", Path(scratch) / "bundle",
                       "--quiet"] for tree in trees],
            "xmllint": [["xmllint", "--stream", "--noout", *results[preset]["facts"]["xliff"]] for preset in presets],
        }
        for name, pair in commands.items():
            growth[name] = measure_growth(pair, GROWTH_PAIRS, GROWTH_BLOCK)
    return growth


def tree_facts(tree):
    xliff = sorted((tree / "translations").glob("*.xliff"))
    units = sum(path.read_bytes().count(b"<trans-unit ") for path in xliff)
    return {"xliff": xliff, "xliff_bytes": sum(path.stat().st_size for path in xliff), "units": units,
            "pngs": len(list((tree / "images").rglob("*.png"))),
            "yaml": len(list((tree / "messages").rglob("*.yaml")))}


def bench_preset(preset, seed, msgc, pofilter):
    tree = corpus(preset, seed)
    facts = tree_facts(tree)
    runs = RUNS[preset]
    log(f"{preset}: {facts['units']} units in {len(facts['xliff'])} XLIFF files, {facts['xliff_bytes'] / 2**20:.1f} MiB")
    results = {"facts": facts}
    # Beyond Apple's cap (10x, 100x) lint reports PRJ006 and exits 1, and build stops on it.
    capped = (0,) if preset == "app" else (0, 1)
    # lint, build and xmllint are taken in turn (`measure_in_turn`), so that the ratio of
    # lint to xmllint compares runs of the same seconds.
    with tempfile.TemporaryDirectory(prefix="msgc-bench-") as scratch:
        out = Path(scratch) / "bundle"
        results.update(measure_in_turn({
            "lint": ([msgc, "lint", "--content", tree, "--quiet"], capped),
            "build": ([msgc, "build", "--content", tree, "--environment", "sandbox", "--out", out, "--quiet"], capped),
            "xmllint": (["xmllint", "--stream", "--noout", *facts["xliff"]], (0,)),
        }, runs))
        results["build_wrote"] = (out / "manifest.json").exists()
    with tempfile.TemporaryDirectory(prefix="pofilter-bench-") as scratch:
        # pofilter reads a folder of .xliff files and writes the units that fail a check; it
        # exits 0 whatever it finds.
        # No warm-up: pofilter takes minutes at 100x, and reading its files is a small part of that.
        results["pofilter"] = measure([pofilter, "--progress=none", "-i", tree / "translations", "-o", Path(scratch) / "out"],
                                      POFILTER_RUNS[preset], warmup=0)
    return results


class LanguageClient:
    """A minimal LSP client over a `msgc lsp` process: framed JSON-RPC on its standard streams."""

    def __init__(self, msgc):
        self.process = subprocess.Popen([msgc, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL)
        self.next_id = 1

    def send(self, message, ascii=True):
        # Editors send UTF-8 as it is; `ascii` writes non-ASCII text as \u escapes instead.
        body = json.dumps(message, ensure_ascii=ascii).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def read(self):
        header = b""
        while not header.endswith(b"\r\n\r\n"):
            byte = self.process.stdout.read(1)
            if not byte:
                raise SystemExit("msgc lsp ended early")
            header += byte
        length = next(int(line.split(b":")[1]) for line in header.split(b"\r\n") if line.lower().startswith(b"content-length"))
        return json.loads(self.process.stdout.read(length))

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while (message := self.read()).get("id") != self.next_id:
            pass
        return message

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def published(self, uri):
        """Waits for the next publishDiagnostics of `uri`."""
        while True:
            message = self.read()
            if message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] == uri:
                return message["params"]["diagnostics"]

    def close(self):
        self.request("shutdown", None)
        self.notify("exit", None)
        self.process.wait()


def bench_baseline(seed, msgc, baseline, commit, runs=31):
    """`msgc lint` on the app preset's tree, this msgc in turn with the baseline's. More runs than
    the presets' (a target of a few percent is finer than the machine's noise over seven)."""
    tree = corpus("app", seed)
    timings = measure_in_turn({"msgc": ([msgc, "lint", "--content", tree], (0,)),
                               "baseline": ([baseline, "lint", "--content", tree], (0,))}, runs)
    return {"commit": commit, "msgc": timings["msgc"], "baseline": timings["baseline"], "runs": runs}


# The size of the translator's file in the editor's XLIFF case (`translator_tree`): a real
# CAT tool's file of one locale, where the one msgc extract writes for the app preset is 240 KB.
TRANSLATOR_FILE_BYTES = 2**20


def translator_tree(seed):
    """The app preset's tree as a translator has it: translations/de-DE.xliff the size of a real
    1 MB file of a CAT tool (each unit carries translation-memory matches in `<alt-trans>`, as
    memoQ and Trados write them, until the file is `TRANSLATOR_FILE_BYTES`), exported before the
    writer edited every text (the first letter of each `<source>` changes case), so that every
    unit of the file is stale: one warning (TRN001) per unit, each with a related location (the
    unit's target) that the editor shows beside it."""
    clean = corpus("app", seed)
    tree = WORK / "corpus" / "app-translator"
    stamp = f"app-translator from {(WORK / 'corpus' / 'app.stamp').read_text()} {hash_file(Path(__file__))}"
    stamp_file = WORK / "corpus" / "app-translator.stamp"
    if stamp_file.exists() and stamp_file.read_text() == stamp and tree.exists():
        return tree
    log("making the app-translator tree")
    stamp_file.unlink(missing_ok=True)
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(clean, tree)
    path = tree / "translations" / "de-DE.xliff"
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"(<source>)(.)", lambda m: m.group(1) + m.group(2).swapcase(), text)
    units = re.findall(r"<source>([^<]*)</source>\s*<target[^>]*>([^<]*)</target>", text)

    def match(source, target, quality):
        return (f'\n        <alt-trans match-quality="{quality}" origin="tm">\n          <source>{source}</source>\n'
                f'          <target>{target}</target>\n        </alt-trans>')

    per_round = sum(len(match(source, target, 99).encode()) for source, target in units)
    rounds = max(0, -(-(TRANSLATOR_FILE_BYTES - len(text.encode())) // per_round))

    def add_matches(m):
        source, target = m.group(2), m.group(4)
        return m.group(0) + "".join(match(source, target, 99 - 4 * n) for n in range(rounds))

    text = re.sub(r"(<source>)([^<]*)(</source>\s*<target[^>]*>)([^<]*)</target>", add_matches, text)
    path.write_text(text, encoding="utf-8")
    stamp_file.write_text(stamp)
    return tree


def time_edits(client, uri, text, edited, runs, lint):
    """The median time from a didChange (the whole text, alternately `edited` and `text`) to the
    publishDiagnostics of `uri`, over `runs` changes after one that is not counted (as with the
    commands' warm-up run), the number of findings published, and the median of `lint` (a
    command) run once before each change.

    Taken in turn, each change and the lint it is compared with fall in the same seconds of the
    machine, as in `measure_in_turn`: on a machine shared with other work, a lint timed a minute
    apart from the editor measured the machine as much as msgc."""
    times, lints = [], []
    findings = 0
    for version in range(2, runs + 3):
        lint_wall, _ = run_once(lint)
        started = time.perf_counter()
        client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                 "contentChanges": [{"text": edited if version % 2 == 0 else text}]})
        findings = len(client.published(uri))
        if version > 2:
            times.append(time.perf_counter() - started)
            lints.append(lint_wall)
    return statistics.median(times), findings, statistics.median(lints)


def bench_editor(seed, msgc, runs=31):
    """`msgc lsp` as editors drive it, on the app preset's tree and on the translator's tree made
    from it (`translator_tree`), each change timed from the didChange notification to the
    publishDiagnostics of that document, in turn with a clean `msgc lint` of the app preset
    (`time_edits`).

    yaml: a writer's message source is open, and one of its headers is edited back and forth
    (each edit makes that header's translations stale). xliff: a translator's 1 MB file is open,
    every unit of it stale (hundreds of findings with a related location), and one target is
    edited back and forth. Also times a `msgc lint` of the translator's tree, in turn with the
    app preset's."""
    cases = {}
    app = corpus("app", seed)
    translator = translator_tree(seed)
    clean_lint = [msgc, "lint", "--content", app, "--quiet"]
    source = sorted((app / "messages").rglob("*.yaml"))[0]
    yaml_text = source.read_text(encoding="utf-8")
    xliff = translator / "translations" / "de-DE.xliff"
    xliff_text = xliff.read_text(encoding="utf-8")
    for name, tree, document, language, text, edited in (
            ("yaml", app, source, "yaml", yaml_text, re.sub(r"^(\s*header: \"?)", r"\1Now: ", yaml_text, count=1, flags=re.M)),
            ("xliff", translator, xliff, "xml", xliff_text, re.sub(r"(<target[^>]*>)", r"\1Jetzt: ", xliff_text, count=1))):
        uri = document.resolve().as_uri()
        client = LanguageClient(msgc)
        client.request("initialize", {"processId": None, "rootUri": tree.resolve().as_uri(), "capabilities": {}})
        client.notify("initialized", {})
        started = time.perf_counter()
        client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}})
        client.published(uri)
        opened = time.perf_counter() - started
        change, findings, lint = time_edits(client, uri, text, edited, runs, clean_lint)
        client.close()
        cases[name] = {"open": opened, "change": change, "lint": lint, "runs": runs, "findings": findings,
                       "document": str(document.relative_to(tree)), "bytes": len(text.encode())}
    timed = measure_in_turn({"app": (clean_lint, (0,)),
                             "translator": ([msgc, "lint", "--content", translator, "--quiet"], (0,))}, RUNS["app"])
    cases["xliff"]["tree_lint"] = timed["translator"]["wall"]
    cases["xliff"]["app_lint"] = timed["app"]["wall"]
    return cases


HOSTILE_BEGIN, HOSTILE_END = "<!-- hostile:begin -->", "<!-- hostile:end -->"
# Sizes of the escape-laden inputs, runs of each, and how long one run of the baseline may take
# before it is stopped: a reader quadratic in escapes needs a quarter of an hour for 8 MiB.
HOSTILE_SIZES = (1 << 20, 8 << 20)
HOSTILE_RUNS = 5
HOSTILE_CAP = 300


def hostile_inputs(size):
    """A state file and an LSP didOpen body of `size` bytes, nearly all of them JSON escapes
    between one-character runs of text (`é\\"`): the shape that once made msgc's JSON reader copy
    the whole string at every escape. Both go through real msgc paths: `msgc coverage --state`
    on the example content tree, and a message source of that tree opened in `msgc lsp`."""
    folder = WORK / "hostile"
    folder.mkdir(parents=True, exist_ok=True)
    note = "é\\\"" * (size // 4)
    state = folder / f"state-{size}.json"
    state.write_text('{"messages": {"messageIdentifiers": [{"messageIdentifier": "00000000-0000-5000-8000-000000000009", '
                     '"messageState": "PENDING", "note": "' + note + '"}]}, "images": {"imageIdentifiers": []}}\n',
                     encoding="utf-8")
    text = "messages:\n  - key: hostile\n    body: '" + 'é"' * (size // 4) + "'\n"
    return state, text


def lsp_open_seconds(msgc, tree, text, cap):
    """Seconds from didOpen of `text` (as messages/hostile.yaml of `tree`) to its
    publishDiagnostics, or None when `cap` seconds pass first (the server is stopped)."""
    import threading
    client = LanguageClient(msgc)
    watchdog = threading.Timer(cap, client.process.kill)
    watchdog.start()
    try:
        client.request("initialize", {"processId": None, "rootUri": tree.resolve().as_uri(), "capabilities": {}})
        uri = (tree.resolve() / "messages" / "hostile.yaml").as_uri()
        started = time.perf_counter()
        client.send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                     "params": {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}}, ascii=False)
        client.published(uri)
        seconds = time.perf_counter() - started
        client.close()
        return seconds
    except (SystemExit, BrokenPipeError, ValueError):
        return None
    finally:
        watchdog.cancel()
        client.process.kill()
        client.process.wait()


def bench_hostile(msgc, baseline=None, commit=None):
    """8 MiB of JSON escapes read through `msgc coverage --state` and `msgc lsp` (and 1 MiB, for
    how time grows with size), by this msgc and, with --baseline, by the baseline's, which is
    timed once per input and stopped after HOSTILE_CAP seconds."""
    tree = ROOT / "content"
    rows = []
    for size in HOSTILE_SIZES:
        state, text = hostile_inputs(size)
        coverage = [msgc, "coverage", "--content", tree, "--state", state, "--format", "json"]
        row = {"size": size, "coverage": measure(coverage, HOSTILE_RUNS)["wall"],
               "lsp": statistics.median(filter(None, (lsp_open_seconds(msgc, tree, text, HOSTILE_CAP) for _ in range(HOSTILE_RUNS))))}
        if baseline:
            try:
                started = time.perf_counter()
                subprocess.run([baseline] + coverage[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=HOSTILE_CAP)
                row["baseline_coverage"] = time.perf_counter() - started
            except subprocess.TimeoutExpired:
                row["baseline_coverage"] = None
            row["baseline_lsp"] = lsp_open_seconds(baseline, tree, text, HOSTILE_CAP)
        rows.append(row)
    return {"rows": rows, "runs": HOSTILE_RUNS, "commit": commit}


def render_hostile(hostile):
    def cell(seconds):
        return f"more than {HOSTILE_CAP} s (stopped)" if seconds is None else ms(seconds)
    with_baseline = "baseline_coverage" in hostile["rows"][0]
    lines = [HOSTILE_BEGIN, "", "### Hostile input: JSON escapes", "",
             "`bench_hostile` in the script reads a string of JSON escapes between one-character runs of text",
             "(`é\\\"` over and over) through `msgc coverage --state` (a state file) and `msgc lsp` (a message",
             "source of the example tree opened with that text: the time from didOpen to its findings); median of",
             f"{hostile['runs']} runs."
             + (f" The baseline, msgc built at `{hostile['commit'][:10]}`, runs once per input and is stopped after {HOSTILE_CAP} s."
                if with_baseline else ""), ""]
    header = "| input | `msgc coverage --state` | `msgc lsp` didOpen → findings |"
    if with_baseline:
        header += " coverage at the baseline | lsp at the baseline |"
    lines += [header, "| --- | --- | --- |" + (" --- | --- |" if with_baseline else "")]
    for row in hostile["rows"]:
        line = f"| {row['size'] / 2**20:g} MiB | {ms(row['coverage'])} | {ms(row['lsp'])} |"
        if with_baseline:
            line += f" {cell(row['baseline_coverage'])} | {cell(row['baseline_lsp'])} |"
        lines.append(line)
    return "\n".join(lines + ["", HOSTILE_END])


LONGLINE_BEGIN, LONGLINE_END = "<!-- longline:begin -->", "<!-- longline:end -->"
LONGLINE_RUNS = 5
# How long one run may take before it is stopped: the human report of this file once took 20 minutes.
LONGLINE_CAP = 300


def long_line_tree(seed):
    """The translator's tree (`translator_tree`) with its 1 MB de-DE.xliff as a WorldServer file
    has it: the XML declaration, then every unit on one line that starts with a tab, with tabs
    between elements, and in every target a soft hyphen, LRM/RLM and a family emoji joined by
    ZWJ. Every unit is stale (one finding per unit): hundreds of snippets of one line."""
    base = translator_tree(seed)
    tree = WORK / "corpus" / "app-longline"
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(base, tree)
    path = tree / "translations" / "de-DE.xliff"
    text = path.read_text(encoding="utf-8")
    declaration, _, rest = text.partition("\n")
    rest = "\t".join(line.strip() for line in rest.splitlines() if line.strip())
    rest = re.sub(r"(<target[^>]*>)", "\\1\u00ad\u200e\U0001F468\u200d\U0001F469\u200d\U0001F467\u200f\t", rest)
    path.write_text(declaration + "\n\t" + rest + "\n", encoding="utf-8")
    return tree, path


def bench_long_line(msgc, seed):
    """`msgc lint` of the one-line file (`long_line_tree`) in every format: median of
    LONGLINE_RUNS, or None when a run passes LONGLINE_CAP seconds."""
    tree, path = long_line_tree(seed)
    findings = json.loads(subprocess.run([msgc, "lint", "--content", tree, path, "--format", "json"],
                                         stdout=subprocess.PIPE, text=True).stdout)["summary"]
    line = max(len(line) for line in path.read_text(encoding="utf-8").splitlines())
    rows = {}
    for format in FORMATS:
        command = [msgc, "lint", "--content", tree, path, "--format", format]
        try:
            subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=LONGLINE_CAP)
            rows[format] = measure(command, LONGLINE_RUNS, accept=(0, 1))["wall"]
        except subprocess.TimeoutExpired:
            rows[format] = None
    return {"rows": rows, "bytes": path.stat().st_size, "line": line, "findings": findings, "runs": LONGLINE_RUNS}


def render_long_line(result, note):
    def cell(seconds):
        return f"more than {LONGLINE_CAP} s (stopped)" if seconds is None else ms(seconds)
    findings = result["findings"]
    lines = [LONGLINE_BEGIN, "", "### A one-line 1 MB XLIFF", "",
             f"`bench_long_line` lints a translator's {mib(result['bytes'])} de-DE.xliff written on one line of "
             f"{result['line']:,} characters that starts with a tab (tabs between elements; a soft hyphen, LRM/RLM and a "
             f"ZWJ emoji in every target), {findings['errors']} errors and {findings['warnings']} warnings, with "
             f"`msgc lint --content TREE FILE --format F`; median of {result['runs']} runs, {note}.", "",
             "| " + " | ".join(f"`--format {f}`" for f in FORMATS) + " |",
             "|" + " --- |" * len(FORMATS),
             "| " + " | ".join(cell(result["rows"][f]) for f in FORMATS) + " |", "", LONGLINE_END]
    return "\n".join(lines)


def write_long_line_section(section):
    path = ROOT / "BENCHMARKS.md"
    text = path.read_text()
    if LONGLINE_BEGIN in text and LONGLINE_END in text:
        text = text[:text.index(LONGLINE_BEGIN)] + section + text[text.index(LONGLINE_END) + len(LONGLINE_END):]
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    path.write_text(text)


def machine():
    cpu = "unknown"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    memory = next((int(line.split()[1]) * 1024 for line in Path("/proc/meminfo").read_text().splitlines()
                   if line.startswith("MemTotal")), 0)
    os_name = platform.platform()
    release = Path("/etc/os-release")
    if release.exists():
        match = re.search(r'^PRETTY_NAME="?([^"\n]*)', release.read_text(), re.M)
        if match:
            os_name = f"{match.group(1)}, Linux {platform.release()}"
    return {"cpu": cpu, "cores": os.cpu_count(), "memory": memory, "os": os_name}


def versions(msgc, pofilter):
    swift = run_quiet(["swift", "--version"]).strip().splitlines()[0]
    xmllint = run_quiet(["xmllint", "--version"]).splitlines()[0]
    return {"swift": swift, "msgc": run_quiet([str(msgc), "--version"]).strip(), "xmllint": xmllint,
            "pofilter": f"translate-toolkit {run_quiet([str(pofilter), '--version']).split()[-1]}",
            "python": platform.python_version()}


def ms(seconds):
    return f"{seconds * 1000:,.0f} ms" if seconds < 10 else f"{seconds:,.1f} s"


def mib(size):
    return f"{size / 2**20:,.0f} MiB"


def render(results, growth, everyday, editor, baseline, hostile, info, tools, load_before, load_after, other, command):
    lines = [BEGIN, "", f"Regenerate with `{command}`. Numbers are medians of several runs, each command's after one",
             "run that is not counted (so that all of them read their files from a warm page cache); lint, build and",
             "xmllint take turns, one run of each at a time, so that they are timed on the same machine (`measure_in_turn`",
             "in the script says why). Peak memory is the largest resident set of the process (getrusage).", ""]
    lines += ["| preset | localized messages | XLIFF | `msgc lint` | `msgc build` | `xmllint --stream` | `pofilter` | lint ÷ xmllint | pofilter ÷ lint |",
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for preset, r in results.items():
        f = r["facts"]
        messages = {"app": 2000, "10x": 20000, "100x": 200000}[preset]
        build_note = "" if r["build_wrote"] else " (stops: PRJ006)"
        lines.append(
            f"| {preset} | {messages:,} | {len(f['xliff'])} files, {f['units']:,} units, {mib(f['xliff_bytes'])} "
            f"| {ms(r['lint']['wall'])}, {mib(r['lint']['peak'])} | {ms(r['build']['wall'])}, {mib(r['build']['peak'])}{build_note} "
            f"| {ms(r['xmllint']['wall'])}, {mib(r['xmllint']['peak'])} | {ms(r['pofilter']['wall'])}, {mib(r['pofilter']['peak'])} "
            f"| {r['lint']['wall'] / r['xmllint']['wall']:.2f}× | {r['pofilter']['wall'] / r['lint']['wall']:.0f}× |")
    lines.append("")
    runs = ", ".join(f"{p}: {r['lint']['runs']} (pofilter {r['pofilter']['runs']})" for p, r in results.items())
    lines.append(f"Runs per command: {runs}.")
    if growth:
        lines += ["", "### From 10x to 100x", "",
                  f"Both presets are timed in turn, {growth['lint']['pairs']} times: {growth['lint']['block']} runs of 10x back to back, "
                  "then one run of 100x,",
                  "which lasts as long. Time grows by the ratio of the median 100x run to the median mean of a block",
                  "of 10x runs. `measure_growth` in the script says why: taken in turn, both presets are timed on the",
                  "same machine; in blocks, on the same stretches of it (a 100x run is itself a sum of five seconds,",
                  "slow moments included, which the median of single half-second runs leaves out). The ratio of the",
                  "medians of single runs is shown beside it, and the one from the table above.",
                  "The input grows "
                  f"{results['100x']['facts']['units'] / results['10x']['facts']['units']:.2f}× in units and "
                  f"{results['100x']['facts']['xliff_bytes'] / results['10x']['facts']['xliff_bytes']:.2f}× in bytes of XLIFF.", "",
                  "| command | 10x (block mean) | 100x | growth | lowest and highest of one pair | single runs | from the table above |",
                  "| --- | --- | --- | --- | --- | --- | --- |"]
        for name, label in (("lint", "`msgc lint`"), ("build", "`msgc build`"), ("xmllint", "`xmllint --stream`")):
            g = growth[name]
            table = results["100x"][name]["wall"] / results["10x"][name]["wall"]
            lines.append(f"| {label} | {ms(g['small'])} | {ms(g['large'])} | {g['growth']:.2f}× | {g['low']:.2f}×–{g['high']:.2f}× "
                         f"| {g['single']:.2f}× | {table:.2f}× |")
    if everyday:
        lines += ["", "### Everyday trees: with findings against clean", "",
                  "Each tree is made from a preset by `everyday_tree` in the script: `app-edited` and `10x-edited` have",
                  "every source header edited (so every translation of it is stale), `app-overflow` every German target",
                  "written twice over (too long). Every command runs straight after the same command on the clean tree,",
                  "round after round; the ratio is the median with findings over the median without. `build` prints its",
                  "findings (human) on standard error.", "",
                  "| tree | findings | " + " | ".join(f"`--format {f}`" for f in FORMATS) + " | `msgc build` |",
                  "| --- | --- | " + " | ".join("---" for _ in FORMATS) + " | --- |"]
        for name, r in everyday.items():
            cells = []
            for command in FORMATS + ("build",):
                timing = r["commands"][command]
                note = " (clean: stops, PRJ006)" if command == "build" and not r["clean_build_wrote"] else ""
                cells.append(f"{ms(timing['dirty']['wall'])} / {ms(timing['clean']['wall'])} = "
                             f"{timing['dirty']['wall'] / timing['clean']['wall']:.2f}×{note}")
            lines.append(f"| {name} (from {r['base']}) | {r['errors']:,} errors, {r['warnings']:,} warnings | " + " | ".join(cells) + " |")
        lines += ["", "Runs per command: " + ", ".join(f"{name}: {r['runs']}" for name, r in everyday.items()) + "."]
    if editor:
        yaml, xliff = editor["yaml"], editor["xliff"]
        lines += ["", "### In the editor: `msgc lsp`", "",
                  "`bench_editor` in the script opens one document in `msgc lsp` and edits it back and forth: the time",
                  "from each `didChange` to the `publishDiagnostics` of that document, median of "
                  f"{yaml['runs']} edits, each in turn with a",
                  "clean `msgc lint` of the app preset's tree (`time_edits`). yaml: a writer's source of the app preset, one",
                  f"header edited (its translations turn stale). xliff: `{xliff['document']}` of `translator_tree`, the app preset's",
                  f"tree with that file grown to {xliff['bytes'] / 2**20:.1f} MiB (translation-memory matches) and every unit of it stale, each",
                  f"finding with a related location; one target edited. `msgc lint` of that tree takes {ms(xliff['tree_lint'])} (in turn",
                  f"with the clean tree's {ms(xliff['app_lint'])}).", "",
                  "| document | findings in it | first check (didOpen) | didChange → publishDiagnostics | clean `msgc lint` | ratio |",
                  "| --- | --- | --- | --- | --- | --- |"]
        for name, case in editor.items():
            lines.append(f"| {name}: `{case['document']}`, {case['bytes'] / 1024:,.0f} KB | {case['findings']:,} | {ms(case['open'])} "
                         f"| {ms(case['change'])} | {ms(case['lint'])} | {case['change'] / case['lint']:.2f}× |")
    if baseline:
        lines += ["", "### Against an earlier revision", "",
                  f"`msgc lint` on the app preset's tree, taken in turn with msgc built at `{baseline['commit'][:10]}` "
                  f"(`bench_baseline`), {baseline['runs']} runs each:", "",
                  "| `msgc lint` | at the baseline | ratio |", "| --- | --- | --- |",
                  f"| {ms(baseline['msgc']['wall'])} | {ms(baseline['baseline']['wall'])} "
                  f"| {baseline['msgc']['wall'] / baseline['baseline']['wall']:.3f}× |"]
    if hostile:
        lines += ["", render_hostile(hostile)]
    lines += ["", "### Targets", "", "| target | measured | met |", "| --- | --- | --- |"]
    for name, measured, met in targets(results, growth, everyday, editor, baseline):
        lines.append(f"| {name} | {measured} | {'n/a' if met is None else 'yes' if met else '**no**'} |")
    lines += ["", "### Machine", "",
              f"- CPU: {info['cpu']}, {info['cores']} cores; memory {info['memory'] / 2**30:.0f} GiB",
              f"- OS: {info['os']}",
              f"- load average (1, 5, 15 min) before: {load_before}; after: {load_after} (it counts the benchmark's own processes)",
              f"- other work: {other['seconds']:,.1f} s of CPU time in the {other['wall']:,.0f} s of measuring "
              f"({other['share']:.1%} of the machine)"
              + ("" if other["share"] < 0.05 else " — **the machine was busy with other work: wall times are slower than it can do**"),
              f"- {tools['swift']}; msgc {tools['msgc']} (release build, scripts/build-release.sh: Swift runtime linked statically)",
              f"- {tools['xmllint']}",
              f"- {tools['pofilter']} (Python {tools['python']})", "", END]
    return "\n".join(lines)


def targets(results, growth, everyday=None, editor=None, baseline=None):
    rows = []
    if baseline:
        ratio = baseline["msgc"]["wall"] / baseline["baseline"]["wall"]
        rows.append((f"app: `msgc lint` ≤ 1.05× msgc at `{baseline['commit'][:10]}`", f"{ratio:.3f}×", ratio <= 1.05))
    if editor and "app" in results:
        for name, case in editor.items():
            ratio = case["change"] / case["lint"]
            rows.append((f"app, {name}: `msgc lsp` didChange → publishDiagnostics ≤ 0.5× clean `msgc lint`", f"{ratio:.2f}×", ratio <= 0.5))
    if "app" in results:
        lint = results["app"]["lint"]
        rows.append(("app: `msgc lint` ≤ 100 ms wall", ms(lint["wall"]), lint["wall"] <= 0.100))
        rows.append(("app: `msgc lint` ≤ 100 MiB peak", mib(lint["peak"]), lint["peak"] <= 100 * 2**20))
    for preset, r in results.items():
        ratio = r["lint"]["wall"] / r["xmllint"]["wall"]
        rows.append((f"{preset}: lint ≤ 1.5× `xmllint --stream --noout`", f"{ratio:.2f}×", ratio <= 1.5))
    if "app" in results:
        ratio = results["app"]["lint"]["wall"] / results["app"]["xmllint"]["wall"]
        rows.append(("app: lint ≤ 1.0× `xmllint --stream --noout`", f"{ratio:.2f}×", ratio <= 1.0))
    for name, r in (everyday or {}).items():
        for command in FORMATS + ("build",):
            timing = r["commands"][command]
            ratio = timing["dirty"]["wall"] / timing["clean"]["wall"]
            label = f"`msgc build`" if command == "build" else f"`--format {command}`"
            if command == "build" and not r["clean_build_wrote"]:
                # A build that writes a bundle against one that stops before writing (see above).
                rows.append((f"{name}: {label} with findings ≤ 1.3× clean", f"{ratio:.2f}× (the clean tree does not build)", None))
                continue
            rows.append((f"{name}: {label} with findings ≤ 1.3× clean", f"{ratio:.2f}×", ratio <= 1.3))
    for preset, r in results.items():
        ratio = r["pofilter"]["wall"] / r["lint"]["wall"]
        rows.append((f"{preset}: lint ≥ 50× faster than `pofilter`", f"{ratio:.0f}×", ratio >= 50))
    if growth:
        for command in ("lint", "build"):
            ratio = growth[command]["growth"]
            rows.append((f"10x → 100x: `msgc {command}` time grows ≤ 10×", f"{ratio:.2f}× (blocks in turn)", ratio <= 10))
        for command in ("lint", "build"):
            ratio = results["100x"][command]["peak"] / results["10x"][command]["peak"]
            rows.append((f"10x → 100x: `msgc {command}` peak memory grows ≤ 10×", f"{ratio:.1f}×", ratio <= 10))
    return rows


def bench_apply(msgc, runs=APPLY_RUNS):
    """A first sandbox release of the example content/ against the stand-in at Apple's scaled
    limits: msgc's wall time, the floor those limits allow, and the 429s."""
    python = ROOT / ".build-venv" / "bin" / "python"
    if not python.exists():
        python = Path(sys.executable)
    standin = ROOT / "Tests" / "msgcTests" / "AppleStandIn" / "standin.py"
    upload_interval = 10 * APPLY_SCALE
    samples = []
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        bundle = folder / "bundle"
        subprocess.run([str(msgc), "build", "--content", str(ROOT / "content"), "--environment", "sandbox", "--out", str(bundle),
                        "--quiet"], check=True, stdout=subprocess.DEVNULL)
        manifest = json.loads((bundle / "manifest.json").read_text())
        counts = {op: sum(1 for e in manifest["operations"] if e["op"] == op) for op in ("uploadImage", "uploadMessage", "configureDefault")}
        # Each endpoint's requests spaced by its interval from the first, the lanes at once:
        # the least time Apple's limits allow (message before image and default before message
        # only add to it).
        floor = max((counts["uploadImage"] - 1) * upload_interval, (counts["uploadMessage"] - 1) * upload_interval,
                    (counts["configureDefault"] - 1) * upload_interval / 10)
        for _ in range(runs):
            config = folder / "standin.json"
            config.write_text(json.dumps({
                "keyOut": str(folder / "key.p8"), "keyId": "BENCHKEY1", "issuerId": "57246542-96fe-1a63-e053-0824d011072a",
                "bundleId": manifest["bundleId"], "environment": "sandbox", "rate": round(1 / upload_interval),
                "rates": {"configureDefault": round(10 / upload_interval)}}))
            server = subprocess.Popen([str(python), str(standin), str(config)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            try:
                port = server.stdout.readline().split()[-1]
                command = [str(msgc), "apply", str(bundle), "--key-file", str(folder / "key.p8"), "--key-id", "BENCHKEY1",
                           "--issuer-id", "57246542-96fe-1a63-e053-0824d011072a", "--api-base", f"http://127.0.0.1:{port}",
                           "--time-scale", str(APPLY_SCALE), "--quiet"]
                start = time.perf_counter()
                result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
                wall = time.perf_counter() - start
            finally:
                server.stdin.close()
                server.wait(timeout=30)
            if result.returncode != 0:
                raise SystemExit(f"msgc apply failed ({result.returncode}):\n{result.stdout}{result.stderr}")
            found = re.search(r"(\d+) requests? to Apple \((\d+) answered 429", result.stdout)
            samples.append({"wall": wall, "requests": int(found.group(1)), "rateLimited": int(found.group(2))})
    wall = statistics.median(s["wall"] for s in samples)
    rate_limited = max(s["rateLimited"] / s["requests"] for s in samples)
    return {"counts": counts, "floor": floor, "wall": wall, "ratio": wall / floor, "rateLimitedShare": rate_limited,
            "requests": samples[0]["requests"], "runs": len(samples), "walls": [s["wall"] for s in samples]}


def render_apply(apply, binary_note):
    c = apply["counts"]
    sequential = (c["uploadImage"] + c["uploadMessage"] - 1) * 10 * APPLY_SCALE
    lines = [APPLY_BEGIN, "", "### Taking a bundle to Apple: `msgc apply`", "",
             "Regenerate with `scripts/benchmark.py --apply-only [--msgc PATH]` (or as part of a full run).",
             f"A first sandbox release of the example content/ ({c['uploadImage']} images, {c['uploadMessage']} messages, "
             f"{c['configureDefault']} default configurations) against the test stand-in, which answers 429 beyond Apple's",
             f"per-endpoint limits scaled by {APPLY_SCALE} (one upload per endpoint every {10 * APPLY_SCALE:g} s, configurations ten times as",
             "often; counted in exact one-second windows, far stricter than Apple's per-hour budget);",
             f"msgc runs with `--time-scale {APPLY_SCALE}`. The floor is the least time those limits allow: each endpoint's",
             "requests spaced by its interval, the lanes at once (msgc keeps a 3 % margin on each interval). Median of "
             f"{apply['runs']} runs ({', '.join(f'{w:.2f} s' for w in apply['walls'])}); {binary_note}.", "",
             "| requests | wall | floor | wall ÷ floor | one lane at a time would need | answered 429 (worst run) |",
             "| --- | --- | --- | --- | --- | --- |",
             f"| {apply['requests']} | {apply['wall']:.2f} s | {apply['floor']:.2f} s | {apply['ratio']:.3f}× | ≥ {sequential:.2f} s | "
             f"{apply['rateLimitedShare']:.1%} |", "",
             "At Apple's own pace (scale 1) the same release takes about "
             f"{apply['wall'] / APPLY_SCALE / 60:.0f} minutes in sandbox; 2,000 messages about 5.7 hours.", "",
             "| target | measured | met |", "| --- | --- | --- |"]
    for name, value, met in apply_targets(apply):
        lines.append(f"| {name} | {value} | {'yes' if met else '**no**'} |")
    lines += ["", APPLY_END]
    return "\n".join(lines)


def apply_targets(apply):
    return [("`msgc apply` wall ≤ 1.05× the floor Apple's limits allow", f"{apply['ratio']:.3f}×", apply["ratio"] <= 1.05),
            ("`msgc apply` requests answered 429 ≤ 5 %", f"{apply['rateLimitedShare']:.1%}", apply["rateLimitedShare"] <= 0.05)]


def write_apply_section(section):
    path = ROOT / "BENCHMARKS.md"
    text = path.read_text()
    if APPLY_BEGIN in text and APPLY_END in text:
        text = text[:text.index(APPLY_BEGIN)] + section + text[text.index(APPLY_END) + len(APPLY_END):]
    else:
        text = text.replace(END, END + "\n\n" + section, 1)
    path.write_text(text)


REALTIME_BEGIN, REALTIME_END = "<!-- realtime:begin -->", "<!-- realtime:end -->"
# Every wrk run is bounded in time; the burst also in count. The paced rate is the issue's
# target load; the connections are few enough for 2 cores and enough to keep both servers busy.
REALTIME_SECONDS = 10
REALTIME_WARMUP_SECONDS = 2
REALTIME_ROUNDS = 5
REALTIME_MAX_SECONDS = 5
REALTIME_RATE = 1000
REALTIME_CONNECTIONS = 32
REALTIME_PACED_CONNECTIONS = 50
REALTIME_LOAD_REQUESTS = 5000
REALTIME_BURST = (1000, 50)  # requests, connections
REALTIME_APP_APPLE_ID = 1234567890
REALTIME_KEY_ID, REALTIME_ISSUER_ID = "BENCHKEY1", "57246542-96fe-1a63-e053-0824d011072a"
# What the requests ask for: the products with offers, plain messages and alternate products in
# the example, in locales either server matches (exactly, or through the snapshot's localeMatches).
REALTIME_PRODUCTS = ("com.example.parla.plus.yearly", "com.example.parla.plus.monthly")
# msgc with an experiment store (issue 47), and Apple's notifications sent to it.
REALTIME_SQLITE, REALTIME_POSTGRESQL = "msgc, SQLite store", "msgc, PostgreSQL store"
REALTIME_NOTIFICATION_RATE = 200
REALTIME_NOTIFICATION_SECONDS = 10
REALTIME_NOTIFICATION_CONNECTIONS = 10
REALTIME_NOTIFICATIONS_PATH = "/notifications"
REALTIME_LOCALES = ("en-US", "de-DE", "fr-FR", "es-MX", "ja", "pt-BR", "en-GB", "es-ES")


def realtime_snapshot(msgc, folder, content):
    """`content` built for production, with Apple holding every message and image
    approved, and its realtime snapshot: the answer sheet every server reads."""
    bundle = folder / "bundle"
    shutil.rmtree(bundle, ignore_errors=True)
    subprocess.run([str(msgc), "build", "--content", str(content), "--environment", "production", "--out", str(bundle),
                    "--quiet"], check=True, stdout=subprocess.DEVNULL)
    manifest = json.loads((bundle / "manifest.json").read_text())
    messages = [{"messageIdentifier": e["identifier"], "messageState": "APPROVED"} for e in manifest["operations"] if e["op"] == "uploadMessage"]
    images = [{"imageIdentifier": e["identifier"], "imageState": "APPROVED"} for e in manifest["operations"] if e["op"] == "uploadImage"]
    state = folder / "state.json"
    state.write_text(json.dumps({"messages": {"messageIdentifiers": messages}, "images": {"imageIdentifiers": images}}))
    snapshot = folder / "snapshot.json"
    subprocess.run([str(msgc), "realtime", "snapshot", str(bundle), "--state", str(state), "--out", str(snapshot)], check=True,
                   stdout=subprocess.DEVNULL)
    return snapshot


def realtime_requests(folder, count, first_index=0):
    """The test PKI and `count` distinct signed requests numbered from `first_index`
    (scripts/realtime-requests.py, the same seed: the same PKI every time), signed now: the
    servers refuse a signedDate more than five minutes old, so each server's runs get fresh ones."""
    shutil.rmtree(folder, ignore_errors=True)
    command = [str(venv_python()), str(ROOT / "scripts" / "realtime-requests.py"), "--out", str(folder), "--no-fixtures",
               "--count", str(count), "--first-index", str(first_index), "--app-apple-id", str(REALTIME_APP_APPLE_ID)]
    for product in REALTIME_PRODUCTS:
        command += ["--product", product]
    for locale in REALTIME_LOCALES:
        command += ["--locale", locale]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return folder / "load" / "bodies.jsonl", folder / "pki"


def venv_python():
    """The test venv's python (Apple's library, for the reference responder and the signed requests),
    made by scripts/test-venv.sh when it is missing."""
    python = ROOT / ".build-venv" / "bin" / "python"
    if not python.exists():
        log("making the test venv (scripts/test-venv.sh): the reference responder runs Apple's library")
        subprocess.run([str(ROOT / "scripts" / "test-venv.sh")], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return python


def free_port():
    import socket
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        return listener.getsockname()[1]


def process_cpu_seconds(pid):
    """User and system CPU time of a running process (/proc/PID/stat, fields 14 and 15)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_until_serving(process, port, seconds=30, name="the server"):
    """Polls GET /healthz until the server answers, for at most `seconds`."""
    import http.client
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"{name} exited ({process.returncode}) before it answered")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise SystemExit(f"no answer on 127.0.0.1:{port}/healthz within {seconds} s")


def wrk(port, bodies, connections, seconds, rate=0, limit=0, path="/"):
    """One wrk run with scripts/realtime-load.lua: its JSON summary line."""
    command = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "5s", "-s", str(ROOT / "scripts" / "realtime-load.lua"),
               f"http://127.0.0.1:{port}/", "--", str(bodies), str(rate), str(limit), path]
    output = run_quiet(command, timeout=seconds + 30)
    return json.loads(next(line for line in output.splitlines() if line.startswith("{")))


class RealtimeServer:
    """One server under test on loopback, started and stopped (SIGTERM) by `bench_realtime`."""

    def __init__(self, name, command, port, store=None, errors=None):
        self.name, self.port, self.store = name, port, store
        # Standard error kept (a lost batch of decisions is said there once); the request log dropped.
        self.errors = errors
        stderr = open(errors, "wb") if errors else subprocess.DEVNULL
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr)
        if errors:
            stderr.close()
        self.counted = 0

    def drive(self, bodies, connections, seconds, rate=0, limit=0, path="/"):
        """One wrk run, with the server's CPU time per request and wrk's own CPU time."""
        cpu = process_cpu_seconds(self.process.pid)
        client = resource.getrusage(resource.RUSAGE_CHILDREN)
        result = wrk(self.port, bodies, connections, seconds, rate, limit, path)
        self.counted += result["requests"]
        result["cpuPerRequest"] = (process_cpu_seconds(self.process.pid) - cpu) / max(1, result["requests"])
        # wrk shares the 2 cores: its CPU time is that of the children waited for since `client`.
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        result["wrkCpu"] = (after.ru_utime + after.ru_stime) - (client.ru_utime + client.ru_stime)
        return result

    def peak_memory(self):
        return int(Path(f"/proc/{self.process.pid}/status").read_text().split("VmHWM:")[1].split()[0]) * 1024

    def metrics(self):
        """GET /metrics: each series' value by its name and labels as written (`name{label="value"}`)."""
        import http.client
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        connection.request("GET", "/metrics")
        text = connection.getresponse().read().decode("utf-8")
        values = {}
        for line in text.splitlines():
            if line and not line.startswith("#"):
                series, _, value = line.rpartition(" ")
                values[series] = float(value)
        return values

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def msgc_serves(msgc):
    """Whether this msgc has `msgc realtime serve` (issue 39's server)."""
    # Asked for help on a subcommand it lacks, the argument parser prints the group's help, and exits 0.
    help_text = subprocess.run([str(msgc), "realtime", "serve", "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True).stdout
    return "realtime serve" in help_text and "--snapshot" in help_text


def experiment_content(folder):
    """The example content/ with the yearly product's `realtime:` list made a weighted split of its three
    messages (an experiment), so that a server with a store settles every subscriber's arm on the answer
    path and logs each decision with its arm. Every server of the benchmark reads its snapshot."""
    content = folder / "content"
    shutil.rmtree(content, ignore_errors=True)
    shutil.copytree(ROOT / "content", content)
    config = content / "msgc.yaml"
    text = config.read_text()
    first_usable = "realtime: [offer-half-price, switch-monthly, winback]"
    if first_usable not in text:
        raise SystemExit(f"content/msgc.yaml has no `{first_usable}` to make an experiment of")
    config.write_text(text.replace(first_usable, "realtime: [{message: offer-half-price, weight: 1}, {message: switch-monthly, weight: 1}, "
                                                 "{message: winback, weight: 1}]", 1))
    return content


def postgresql_binaries():
    """The newest server binaries of Debian's postgresql packages, or None (as the tests find them:
    Tests/ExperimentStoreTests/PostgreSQLServer.swift)."""
    base = Path("/usr/lib/postgresql")
    versions = sorted((int(entry.name) for entry in base.iterdir() if entry.name.isdigit()), reverse=True) if base.is_dir() else []
    for version in versions:
        folder = base / str(version) / "bin"
        if all(os.access(folder / name, os.X_OK) for name in ("initdb", "pg_ctl", "psql")):
            return folder
    return None


class PostgreSQLCluster:
    """A throwaway PostgreSQL server on a free loopback port, its data in a fresh folder under /tmp, as the
    tests make one (initdb and pg_ctl; as root, run as the `postgres` user, which initdb requires), with the
    server's own defaults for durability (fsync and synchronous_commit on): what a deployment would run.
    Its superuser `msgc` is trusted on loopback, so no password is involved."""

    def __init__(self, binaries):
        import pwd
        self.binaries = binaries
        self.folder = Path(tempfile.mkdtemp(prefix="msgc-bench-pg-", dir="/tmp"))
        self.port = free_port()
        self.user = None
        if os.getuid() == 0:
            entry = pwd.getpwnam("postgres")
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
            self.user = "postgres"
        self.run("initdb", "-D", str(self.folder / "data"), "-A", "trust", "-U", "msgc", "-E", "UTF8", "--locale=C")
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c max_connections=40"
        self.run("pg_ctl", "-D", str(self.folder / "data"), "-l", str(self.folder / "server.log"), "-o", options, "-w", "-t", "60", "start")
        self.running = True

    @property
    def uri(self):
        return f"postgres://msgc@127.0.0.1:{self.port}/postgres"

    def run(self, program, *arguments):
        command = [str(self.binaries / program), *arguments]
        if self.user:
            command = ["/usr/sbin/runuser", "-u", self.user, "--"] + command
        return run_quiet(command, timeout=120)

    def count(self, table):
        output = run_quiet([str(self.binaries / "psql"), "-X", "-q", "-t", "-A", "-d", self.uri, "-c", f"SELECT count(*) FROM {table}"])
        return int(output.strip())

    def stop(self):
        if self.running:
            self.run("pg_ctl", "-D", str(self.folder / "data"), "-m", "fast", "-w", "-t", "60", "stop")
            self.running = False
        shutil.rmtree(self.folder, ignore_errors=True)


def sqlite_count(path, table):
    import sqlite3
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as connection:
        return connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def realtime_notifications(folder, count):
    """`count` App Store Server Notifications V2 bodies ({"signedPayload": …}, one a line) signed with the test
    PKI by scripts/realtime-notifications.py --plant, each with its own notificationUUID, about the load's
    subscribers: cancellations, redeemed offers, plan switches and a type the report does not read, in turn."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    now_ms = int(time.time() * 1000)
    kinds = [{"type": "DID_CHANGE_RENEWAL_STATUS", "subtype": "AUTO_RENEW_DISABLED", "autoRenewStatus": 0},
             {"type": "OFFER_REDEEMED", "offerIdentifier": "plus.yearly.half_price"},
             {"type": "DID_CHANGE_RENEWAL_PREF", "subtype": "DOWNGRADE", "autoRenewProductId": REALTIME_PRODUCTS[1]},
             {"type": "SUBSCRIBED", "subtype": "RESUBSCRIBE"}]
    entries = [dict(kinds[index % len(kinds)], originalTransactionId=str(3000000000000000 + index % REALTIME_LOAD_REQUESTS),
                    signedDate=now_ms - index, label=f"bench-{index}", wrapped=True) for index in range(count)]
    plant = folder / "plant.json"
    plant.write_text(json.dumps(entries))
    subprocess.run([str(venv_python()), str(ROOT / "scripts" / "realtime-notifications.py"), "--out", str(folder), "--now", str(now_ms),
                    "--app-apple-id", str(REALTIME_APP_APPLE_ID), "--plant", str(plant)], check=True, stdout=subprocess.DEVNULL)
    return folder / "planted.txt"


def subject_key(folder):
    """--subject-key: 32 random bytes, readable by this user alone."""
    path = folder / "subject.key"
    path.write_bytes(os.urandom(32))
    path.chmod(0o600)
    return path


def metric_sum(metrics, name):
    return sum(value for series, value in metrics.items() if series == name or series.startswith(name + "{"))


def metric_by_label(metrics, name, label):
    """{label value: value} of a counter's series."""
    found = {}
    for series, value in metrics.items():
        match = re.fullmatch(re.escape(name) + r"\{(.*)\}", series)
        if match:
            labels = dict(re.findall(r'(\w+)="([^"]*)"', match.group(1)))
            found[labels.get(label, "")] = value
    return found


def bench_realtime(msgc):
    """`msgc realtime serve` and the reference responder (scripts/realtime-reference-responder.py:
    Apple's Python library and the standard library's HTTP server) on the same snapshot, key,
    test root and requests, both running; the runs as fast as each answers are taken in turn,
    one of each at a time, `REALTIME_ROUNDS` times (the machine is shared: a few slow seconds
    then fall on both alike), then each one's run at 1,000 requests a second and its burst.
    msgc runs three times over: without a store, with `--store sqlite:…` and with `--store postgres://…`
    (a throwaway cluster; left out, with a line saying so, where PostgreSQL's server binaries are
    absent). The servers with a store then take `REALTIME_NOTIFICATION_RATE` signed notifications a
    second for `REALTIME_NOTIFICATION_SECONDS` s, and what reached the store is counted, after SIGTERM,
    against what the servers said they answered: decisions and notifications, so no loss is measured."""
    if not shutil.which("wrk"):
        raise SystemExit("wrk is missing: scripts/install-dependencies.sh wrk")
    folder = WORK / "realtime"
    folder.mkdir(parents=True, exist_ok=True)
    snapshot = realtime_snapshot(msgc, folder, experiment_content(folder))
    notifications_count = REALTIME_NOTIFICATION_RATE * REALTIME_NOTIFICATION_SECONDS
    # The notifications' PKI is the requests' (the same seed), so the servers start with its root before any
    # request is signed.
    notifications = realtime_notifications(folder / "notifications", notifications_count)
    common = ["--snapshot", str(snapshot), "--host", "127.0.0.1", "--app-apple-id", str(REALTIME_APP_APPLE_ID),
              "--key-id", REALTIME_KEY_ID, "--issuer-id", REALTIME_ISSUER_ID]
    pki = folder / "notifications" / "pki"
    trust = ["--root-certificate", str(pki / "root.der"), "--key-file", str(pki / "offer-key.p8")]
    commands = {"reference": ([str(venv_python()), str(ROOT / "scripts" / "realtime-reference-responder.py")] + common, None)}
    skipped = {}
    cluster = None
    stores = folder / "stores"
    shutil.rmtree(stores, ignore_errors=True)
    stores.mkdir()
    if msgc_serves(msgc):
        serve = [str(msgc), "realtime", "serve"] + common
        commands["msgc"] = (serve, None)
        store_options = ["--subject-key", str(subject_key(stores))]
        sqlite_path = stores / "experiments.sqlite"
        commands[REALTIME_SQLITE] = (serve + ["--store", f"sqlite:{sqlite_path}"] + store_options,
                                     lambda table: sqlite_count(sqlite_path, table))
        binaries = postgresql_binaries()
        if binaries is None:
            skipped[REALTIME_POSTGRESQL] = "no PostgreSQL server binaries under /usr/lib/postgresql/*/bin (apt-get install postgresql)"
            log(f"realtime: {REALTIME_POSTGRESQL} left out: {skipped[REALTIME_POSTGRESQL]}")
        else:
            log(f"realtime: starting a PostgreSQL cluster ({binaries})")
            cluster = PostgreSQLCluster(binaries)
            commands[REALTIME_POSTGRESQL] = (serve + ["--store", cluster.uri] + store_options, cluster.count)
    else:
        log("realtime: this msgc has no `realtime serve`: the reference alone is measured")
    # The cluster is stopped whatever happens (a server that does not start included): it outlives the
    # servers only so that what reached it can be counted.
    try:
        servers = []
        results = {}
        try:
            for name, (command, store) in commands.items():
                port = free_port()
                errors = stores / f"{name.replace(' ', '-').replace(',', '')}.stderr" if store else None
                servers.append(RealtimeServer(name, command + trust + ["--port", str(port)], port, store, errors))
            for server in servers:
                wait_until_serving(server.process, server.port, name=server.name)
            # Signed once every server listens: the servers refuse a signedDate more than five minutes old.
            bodies, _ = realtime_requests(folder / "load", REALTIME_LOAD_REQUESTS)
            burst_bodies, _ = realtime_requests(folder / "burst", REALTIME_BURST[0], first_index=REALTIME_LOAD_REQUESTS)
            for server in servers:
                server.drive(bodies, REALTIME_CONNECTIONS, REALTIME_WARMUP_SECONDS)
            rounds = {server.name: [] for server in servers}
            for round_index in range(REALTIME_ROUNDS):
                for server in servers:
                    log(f"realtime: {server.name}, as fast as it answers ({round_index + 1} of {REALTIME_ROUNDS})")
                    rounds[server.name].append(server.drive(bodies, REALTIME_CONNECTIONS, REALTIME_MAX_SECONDS))
            for server in servers:
                log(f"realtime: {server.name}, {REALTIME_RATE} requests a second, then a burst")
                by_rate = sorted(rounds[server.name], key=lambda run: run["rate"])
                before = server.metrics() if server.store else {}
                paced = server.drive(bodies, REALTIME_PACED_CONNECTIONS, REALTIME_SECONDS, REALTIME_RATE)
                after = server.metrics() if server.store else {}
                results[server.name] = {
                    "rounds": rounds[server.name], "max": by_rate[len(by_rate) // 2], "paced": paced,
                    "burst": server.drive(burst_bodies, REALTIME_BURST[1], REALTIME_SECONDS, 0, REALTIME_BURST[0]),
                    "rss": server.peak_memory()}
                if server.store:
                    # How the arms were settled during the paced run alone: an arm the store did not settle in time
                    # (`hashed`) is an answer that waited the whole deadline.
                    start = metric_by_label(before, "msgc_experiment_exposures_total", "assignment")
                    results[server.name]["pacedAssignments"] = {
                        kind: value - start.get(kind, 0)
                        for kind, value in metric_by_label(after, "msgc_experiment_exposures_total", "assignment").items()}
            for server in servers:
                if server.store is None:
                    continue
                log(f"realtime: {server.name}, {REALTIME_NOTIFICATION_RATE} notifications a second for {REALTIME_NOTIFICATION_SECONDS} s")
                requests_counted = server.counted
                # Each body once, in order; when the last is answered, the few requests still in flight on other
                # connections are retries of the first ones (stored once, as Apple's retries are).
                run = server.drive(notifications, REALTIME_NOTIFICATION_CONNECTIONS, REALTIME_NOTIFICATION_SECONDS + 30, REALTIME_NOTIFICATION_RATE, notifications_count,
                                   REALTIME_NOTIFICATIONS_PATH)
                metrics = server.metrics()
                results[server.name]["notifications"] = run
                results[server.name]["store"] = {
                    "wrkRequests": requests_counted,
                    "verified": metric_sum(metrics, "msgc_realtime_answers_total") + metric_sum(metrics, "msgc_realtime_unanswered_total"),
                    "recordedBeforeStop": metric_sum(metrics, "msgc_experiment_decisions_recorded_total"),
                    "lost": metric_by_label(metrics, "msgc_experiment_decisions_lost_total", "reason"),
                    "assignments": metric_by_label(metrics, "msgc_experiment_exposures_total", "assignment"),
                    "notificationOutcomes": metric_by_label(metrics, "msgc_experiment_notifications_total", "outcome"),
                    "notificationsSent": notifications_count}
        finally:
            for server in servers:
                server.stop()
        # Counted once each server has stopped: SIGTERM writes what its recorder still held.
        for server in servers:
            if server.store is not None and "store" in results.get(server.name, {}):
                store = results[server.name]["store"]
                store["decisions"] = server.store("decisions")
                store["subscribers"] = server.store("assignments")
                store["notifications"] = server.store("notifications")
                # Only what is not the start-up's own lines (the schema, the address, the connection cap).
                said = Path(server.errors).read_text(errors="replace").splitlines() if server.errors else []
                store["stderr"] = "\n".join(line for line in said if not re.search(r"schema version|listening on|holds at most", line))
    finally:
        if cluster is not None:
            cluster.stop()
    return {"servers": results, "skipped": skipped, "machine": machine(), "load": load_average()}


def render_realtime(realtime, binary_note):
    servers = realtime["servers"]
    burst, burst_connections = REALTIME_BURST
    lines = [REALTIME_BEGIN, "", "## Realtime server (issues 39 and 47)", "",
             "Regenerate with `scripts/benchmark.py --realtime-only [--msgc PATH]` (or as part of a full run; `wrk` from",
             "`scripts/install-dependencies.sh wrk`). Each server runs on loopback with the same snapshot (the example",
             "content/ for production, every message approved, the yearly product's three `realtime:` messages made a weighted",
             "split, an experiment), the same test root (`--root-certificate`), In-App Purchase",
             f"key and `--app-apple-id`, and answers {REALTIME_LOAD_REQUESTS:,} distinct requests signed just before its runs by",
             "`scripts/realtime-requests.py` (ES256, three-certificate x5c; two products in eight locales: offers signed per",
             "request, alternate products and plain messages). `wrk -t1` with `scripts/realtime-load.lua` cycles through",
             f"them. All servers run at once; after a {REALTIME_WARMUP_SECONDS} s warm-up of each that is not counted, each is driven as fast as",
             f"it answers ({REALTIME_CONNECTIONS} connections) for {REALTIME_MAX_SECONDS} s, in turn with the others, {REALTIME_ROUNDS} times (the median run is",
             f"shown: the machine is shared, and slow seconds then fall on both alike); then each for {REALTIME_SECONDS} s paced to",
             f"{REALTIME_RATE:,} requests a second ({REALTIME_PACED_CONNECTIONS} connections; wrk has no rate option: the script's `delay()` gives",
             "each request a slot in one schedule, a slot every millisecond, and a server slower than that gets its next",
             "request as soon as it answers), then a burst like Apple's sandbox performance test: "
             f"{burst:,} fresh requests at once over",
             f"{burst_connections} connections. Latency is wrk's, from a request's write to its response (wrk adds the samples a stall kept",
             "from being sent: its correction for coordinated omission); wrk runs on the same 2 cores as the server.",
             f"msgc: {binary_note}. The reference: `scripts/realtime-reference-responder.py` (Apple's `SignedDataVerifier` and",
             "`PromotionalOfferV2SignatureCreator`, the standard library's `ThreadingHTTPServer`). msgc runs three times over, all",
             "at once: without a store, with `--store sqlite:PATH` and with `--store postgres://…` (a throwaway PostgreSQL",
             "cluster on loopback, initdb and pg_ctl as the tests make one, with the server's default durability: fsync and",
             "synchronous_commit on), each store server with its own `--subject-key`.", ""]
    lines += ["| server | most answered | p50 / p99 there | server CPU per request there | at 1,000 req/s: achieved | p50 | p99 | max | "
              "server CPU per request | not 200 |",
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, r in servers.items():
        m, p = r["max"], r["paced"]
        lines.append(f"| {name} | {m['rate']:,.0f} req/s | {m['p50']:.2f} / {m['p99']:.2f} ms | {m['cpuPerRequest'] * 1000:.2f} ms | "
                     f"{p['rate']:,.0f} req/s | {p['p50']:.2f} ms | {p['p99']:.2f} ms | {p['max']:.1f} ms | {p['cpuPerRequest'] * 1000:.2f} ms | "
                     f"{m['notOk'] + p['notOk']} |")
    lines += ["", "Each round as fast as it answers (requests a second): "
              + "; ".join(f"{name} " + ", ".join(f"{run['rate']:,.0f}" for run in r["rounds"]) for name, r in servers.items())
              + ". wrk's own CPU time in the median round: "
              + "; ".join(f"{r['max']['wrkCpu']:.1f} s of {REALTIME_MAX_SECONDS} s against {name}" for name, r in servers.items()) + "."]
    lines += ["", f"| server | burst of {burst:,}: answered in | p50 | p99 | max | not 200 | peak memory |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for name, r in servers.items():
        b = r["burst"]
        lines.append(f"| {name} | {b['seconds'] * 1000:,.0f} ms ({b['requests']:,} answers) | {b['p50']:.2f} ms | {b['p99']:.2f} ms | "
                     f"{b['max']:.1f} ms | {b['notOk'] + b['timeouts']} | {mib(r['rss'])} |")
    stored = {name: r for name, r in servers.items() if r.get("store")}
    if stored:
        lines += ["", "What reached the store, counted in it once each server had stopped (SIGTERM): the decisions against the "
                  "requests the server said it answered or declined (`msgc_realtime_answers_total` and `msgc_realtime_unanswered_total` "
                  "just before the notifications; wrk counted fewer, as it stops counting with requests still in flight), how each "
                  "subscriber's arm was settled (`msgc_experiment_exposures_total`; `hashed`: the store did not answer within "
                  "`--assignment-deadline-ms`, 5 ms), and the subscribers with an arm (`assignments`).", "",
                  "| server | requests counted by wrk | answered or declined | decisions stored | lost (metric) | first / sticky / marked / hashed | of which at 1,000 req/s | subscribers with an arm |",
                  "| --- | --- | --- | --- | --- | --- | --- | --- |"]
        for name, r in stored.items():
            store = r["store"]
            a = store["assignments"]
            lost = ", ".join(f"{reason} {value:,.0f}" for reason, value in sorted(store["lost"].items())) or "none"
            lines.append(f"| {name} | {store['wrkRequests']:,} | {store['verified']:,.0f} | {store['decisions']:,} | {lost} | "
                         + " / ".join(f"{a.get(kind, 0):,.0f}" for kind in ("first", "sticky", "marked", "hashed")) + " | "
                         + " / ".join(f"{r['pacedAssignments'].get(kind, 0):,.0f}" for kind in ("first", "sticky", "marked", "hashed"))
                         + f" | {store['subscribers']:,} |")
        lines += ["", f"Notifications: {REALTIME_NOTIFICATION_RATE * REALTIME_NOTIFICATION_SECONDS:,} App Store Server Notifications V2 "
                  "signed by `scripts/realtime-notifications.py --plant` (each with its own notificationUUID, about the load's "
                  "subscribers: cancellations, redeemed offers, plan switches, resubscriptions), POSTed to "
                  f"`{REALTIME_NOTIFICATIONS_PATH}` paced to {REALTIME_NOTIFICATION_RATE} a second over "
                  f"{REALTIME_NOTIFICATION_CONNECTIONS} connections, each once (the few requests in flight when the last is answered "
                  "are retries of the first). A 200 means stored (docs/realtime.md); the rows are counted in the store.", "",
                  "| server | sent | achieved | p50 | p99 | max | not 200 | rows stored | outcomes (metric) |",
                  "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
        for name, r in stored.items():
            n, store = r["notifications"], r["store"]
            outcomes = ", ".join(f"{outcome} {value:,.0f}" for outcome, value in sorted(store["notificationOutcomes"].items()) if value)
            lines.append(f"| {name} | {n['requests']:,} | {n['rate']:,.0f} a second | {n['p50']:.2f} ms | {n['p99']:.2f} ms | "
                         f"{n['max']:.1f} ms | {n['notOk'] + n['timeouts']} | {store['notifications']:,} of {store['notificationsSent']:,} | "
                         f"{outcomes} |")
        for name, r in stored.items():
            if r["store"]["stderr"]:
                lines += ["", f"{name} said on standard error: `" + " / ".join(r["store"]["stderr"].splitlines()[:3]) + "`"]
    for name, reason in realtime.get("skipped", {}).items():
        lines += ["", f"{name}: left out, {reason}."]
    lines += ["", "| target | measured | met |", "| --- | --- | --- |"]
    for target, value, met in realtime_targets(realtime):
        lines.append(f"| {target} | {value} | {'yes' if met else '**no**'} |")
    info = realtime["machine"]
    lines += ["", f"Machine: {info['cpu']}, {info['cores']} cores, {info['os']}; load average (1, 5, 15 min) after the runs: {realtime['load']}.",
              "", REALTIME_END]
    return "\n".join(lines)


def realtime_targets(realtime):
    servers = realtime["servers"]
    if "msgc" not in servers:
        return [("`msgc realtime serve` measured", "not in this msgc", False)]
    reference = servers["reference"]
    targets = []
    for name in ("msgc", REALTIME_SQLITE, REALTIME_POSTGRESQL):
        if name not in servers:
            if name in realtime.get("skipped", {}):
                targets.append((f"{name}: measured", f"left out: {realtime['skipped'][name]}", False))
            continue
        server = servers[name]
        ratio = server["max"]["rate"] / reference["max"]["rate"]
        ratios = sorted(m["rate"] / r["rate"] for m, r in zip(server["rounds"], reference["rounds"]))
        paced, burst = server["paced"], server["burst"]
        targets += [
            (f"{name}: p99 < 10 ms at {REALTIME_RATE:,} requests a second", f"{paced['p99']:.2f} ms at {paced['rate']:,.0f} req/s",
             paced["p99"] < 10 and paced["rate"] >= 0.95 * REALTIME_RATE),
            (f"{name}: ≥ 10× the reference's throughput", f"{ratio:.1f}× (median runs; round by round {ratios[0]:.1f}–{ratios[-1]:.1f}×)",
             ratio >= 10),
            (f"{name}: the burst of {REALTIME_BURST[0]:,}, every answer 200 within Apple's 700 ms",
             f"{burst['notOk'] + burst['timeouts']} not 200, max {burst['max']:.1f} ms",
             burst["notOk"] + burst["timeouts"] == 0 and burst["max"] < 700)]
        store = server.get("store")
        if store:
            lost = sum(store["lost"].values())
            targets.append((f"{name}: every decision stored", f"{store['decisions']:,} rows of {store['verified']:,.0f} answered or declined, "
                            f"{lost:,.0f} counted lost", store["decisions"] >= store["verified"] and lost == 0))
            n = server["notifications"]
            targets.append((f"{name}: {REALTIME_NOTIFICATION_RATE} notifications a second, none lost",
                            f"{n['rate']:,.0f} a second, {store['notifications']:,} of {store['notificationsSent']:,} stored, "
                            f"{n['notOk'] + n['timeouts']} not 200",
                            store["notifications"] == store["notificationsSent"] and n["notOk"] + n["timeouts"] == 0
                            and n["rate"] >= 0.95 * REALTIME_NOTIFICATION_RATE))
    return targets


def write_realtime_section(section):
    path = ROOT / "BENCHMARKS.md"
    text = path.read_text()
    if REALTIME_BEGIN in text and REALTIME_END in text:
        text = text[:text.index(REALTIME_BEGIN)] + section + text[text.index(REALTIME_END) + len(REALTIME_END):]
    elif "\n## Hostile input (issue 33)" in text:
        text = text.replace("\n## Hostile input (issue 33)", "\n" + section + "\n\n## Hostile input (issue 33)", 1)
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    path.write_text(text)


def busy_cpu_seconds():
    """CPU time the whole machine has spent not idle since boot (/proc/stat)."""
    values = [int(field) for field in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    idle = values[3] + values[4]  # idle, iowait
    return (sum(values) - idle) / os.sysconf("SC_CLK_TCK")


def children_cpu_seconds():
    """CPU time of the processes this script ran and waited for, and of the script itself."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    own = resource.getrusage(resource.RUSAGE_SELF)
    return children.ru_utime + children.ru_stime + own.ru_utime + own.ru_stime


def load_average():
    return ", ".join(f"{value:.2f}" for value in os.getloadavg())


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presets", default="app,10x,100x")
    parser.add_argument("--everyday", default=",".join(EVERYDAY), help="everyday trees to time, or '' for none")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--scratch-path", default=".build", help="SwiftPM scratch path for the release build")
    parser.add_argument("--baseline", metavar="REVISION", help="a git revision to time the app preset's lint against")
    parser.add_argument("--editor-only", action="store_true",
                        help="time only `msgc lsp` (bench_editor) and print it; BENCHMARKS.md is left as it is")
    parser.add_argument("--apply-only", action="store_true", help="time only `msgc apply` against the stand-in")
    parser.add_argument("--msgc", metavar="PATH",
                        help="with --apply-only, --realtime-only or --long-line-only: the msgc binary to time (default: a release build)")
    parser.add_argument("--realtime-only", action="store_true",
                        help="time only `msgc realtime serve` against the reference responder, and replace only their part of BENCHMARKS.md")
    parser.add_argument("--long-line-only", action="store_true",
                        help="time only the one-line 1 MB XLIFF in every format (bench_long_line) and replace only its part of BENCHMARKS.md")
    parser.add_argument("--hostile-only", action="store_true",
                        help="time only the hostile inputs (bench_hostile) and replace only their part of BENCHMARKS.md")
    args = parser.parse_args(argv[1:])
    if args.editor_only:
        msgc = build_msgc(ROOT / args.scratch_path)
        load_before = load_average()
        editor = bench_editor(args.seed, msgc)
        print(f"load average before: {load_before}; after: {load_average()}")
        print(f"`msgc lint` in turn: of the app preset {ms(editor['xliff']['app_lint'])}, of the translator's tree {ms(editor['xliff']['tree_lint'])}")
        for name, case in editor.items():
            print(f"{name}: {case['document']} ({case['bytes']:,} bytes, {case['findings']:,} findings): didOpen {ms(case['open'])}, "
                  f"didChange → publishDiagnostics {ms(case['change'])} against a clean lint in turn of {ms(case['lint'])} "
                  f"(medians of {case['runs']}) = {case['change'] / case['lint']:.2f}×")
        return
    if args.long_line_only:
        binary = Path(args.msgc) if args.msgc else build_msgc(ROOT / args.scratch_path)
        commit = run_quiet(["git", "rev-parse", "--short=10", "HEAD"], cwd=ROOT).strip()
        note = f"a release build of `{commit}`" if not args.msgc else f"the binary at `{args.msgc}`"
        section = render_long_line(bench_long_line(binary, args.seed), note)
        write_long_line_section(section)
        print(section)
        return
    if args.apply_only:
        binary = Path(args.msgc) if args.msgc else build_msgc(ROOT / args.scratch_path)
        note = "a release build" if not args.msgc else f"the binary at `{args.msgc}` (its time is Apple's pace, not its CPU)"
        section = render_apply(bench_apply(binary), note)
        write_apply_section(section)
        print(section)
        return
    if args.realtime_only:
        binary = Path(args.msgc) if args.msgc else build_msgc(ROOT / args.scratch_path, with_server=True)
        commit = run_quiet(["git", "rev-parse", "--short=10", "HEAD"], cwd=ROOT).strip()
        note = f"a release build of `{commit}`" if not args.msgc else f"the binary at `{args.msgc}`"
        section = render_realtime(bench_realtime(binary), note)
        write_realtime_section(section)
        print(section)
        return
    presets = args.presets.split(",")
    for preset in presets:
        if preset not in RUNS:
            parser.error(f"unknown preset {preset}")
    everyday_names = [name for name in args.everyday.split(",") if name]
    for name in everyday_names:
        if name not in EVERYDAY:
            parser.error(f"unknown everyday tree {name}")
    if not shutil.which("xmllint"):
        raise SystemExit("xmllint is missing: apt-get install libxml2-utils")

    msgc = build_msgc(ROOT / args.scratch_path, with_server=True)
    baseline_binary, baseline_commit = build_baseline(args.baseline) if args.baseline else (None, None)
    if args.hostile_only:
        section = render_hostile(bench_hostile(msgc, baseline_binary, baseline_commit))
        path = ROOT / "BENCHMARKS.md"
        text = path.read_text()
        if HOSTILE_BEGIN not in text or HOSTILE_END not in text:
            raise SystemExit(f"BENCHMARKS.md has no {HOSTILE_BEGIN} part to replace: run the whole benchmark once")
        path.write_text(text[:text.index(HOSTILE_BEGIN)] + section + text[text.index(HOSTILE_END) + len(HOSTILE_END):])
        print(section)
        return
    pofilter = pofilter_binary()
    load_before = load_average()
    start = time.perf_counter(), busy_cpu_seconds(), children_cpu_seconds()
    results = {preset: bench_preset(preset, args.seed, msgc, pofilter) for preset in presets}
    growth = bench_growth(args.seed, msgc, results) if "10x" in results and "100x" in results else None
    everyday = bench_everyday(everyday_names, args.seed, msgc)
    editor = bench_editor(args.seed, msgc) if "app" in results else None
    baseline = bench_baseline(args.seed, msgc, baseline_binary, baseline_commit) if baseline_binary else None
    apply = bench_apply(msgc)
    hostile = bench_hostile(msgc, baseline_binary, baseline_commit)
    long_line = bench_long_line(msgc, args.seed)
    realtime = bench_realtime(msgc)
    wall = time.perf_counter() - start[0]
    seconds = max(0.0, (busy_cpu_seconds() - start[1]) - (children_cpu_seconds() - start[2]))
    other = {"seconds": seconds, "wall": wall, "share": seconds / (wall * (os.cpu_count() or 1))}
    load_after = load_average()

    command = "scripts/benchmark.py" + ("" if args.presets == "app,10x,100x" else f" --presets {args.presets}")
    if args.everyday != ",".join(EVERYDAY):
        command += f" --everyday '{args.everyday}'"
    if args.baseline:
        command += f" --baseline {args.baseline}"
    section = render(results, growth, everyday, editor, baseline, hostile, machine(), versions(msgc, pofilter), load_before, load_after, other, command)
    path = ROOT / "BENCHMARKS.md"
    text = path.read_text() if path.exists() else f"# Benchmarks\n\n{BEGIN}\n{END}\n"
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + section + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    path.write_text(text)
    print(section)
    apply_section = render_apply(apply, "a release build")
    write_apply_section(apply_section)
    print(apply_section)
    long_line_section = render_long_line(long_line, "a release build")
    write_long_line_section(long_line_section)
    print(long_line_section)
    realtime_section = render_realtime(realtime, "a release build")
    write_realtime_section(realtime_section)
    print(realtime_section)


if __name__ == "__main__":
    main(sys.argv)
