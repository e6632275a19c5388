#!/usr/bin/env python3
"""Two builds of the realtime server against each other, with an experiment store, in turn.

Usage: scripts/realtime-ab.py --before MSGC --after MSGC [--store postgresql|sqlite|both] [--rounds N]
       scripts/realtime-ab.py --settle-sql [--rounds N]

What the 5 % rule of speed changes needs: a change to the server's speed measured against the
build before it, on the same machine at the same time. `scripts/benchmark.py --realtime-only`
measures one build against the reference responder, run after run; on a shared machine two
such runs differ by more than 5 % on their own. Here both builds serve at once, each with its
own store (a database of its own on one throwaway PostgreSQL cluster, a SQLite file of its
own), the same snapshot, requests and subject key as benchmark.py's realtime part, and wrk
drives them in turn, as fast as each answers (32 connections, 5 s), `--rounds` times: a slow
second falls on both alike. Each round gives the pair's ratio (after / before); the median
ratio is the change's effect. For each run it also reads the server's CPU time per request
and, with PostgreSQL, the CPU time of the cluster's backends per request (the store's own
work, on the same 2 cores), and how the arms were settled (`hashed`: past the deadline).

`--settle-sql` times instead the one call of the answer path a kept arm does not spare: a
server settling the arm of a subscriber whose row exists (settled by another server, or before
a restart), on PostgreSQL, in its two forms: `INSERT … ON CONFLICT DO NOTHING` then `SELECT`
(two round trips), and the one statement `ExperimentStore.settleInOneStatement` (one). pgbench
runs each on one connection, as the store's answer lane is one, with the extended protocol
(parameters, as libpq's PQexecParams sends them), for 10 s, in turn, `--rounds` times, on a
throwaway cluster of 100,000 assignments.

Prints a Markdown table; nothing is written to BENCHMARKS.md.
"""

import argparse
import os
import re
import shutil
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchmark  # noqa: E402  (the realtime benchmark's own helpers: one way to start and drive a server)


def cluster_cpu_seconds(cluster):
    """CPU time of the cluster's postmaster and every process it started (its backends and workers)."""
    postmaster = int((cluster.folder / "data" / "postmaster.pid").read_text().split()[0])
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry.name) == postmaster or int(fields[1]) == postmaster:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


# The two forms of a settlement, as pgbench scripts: :n is a subscriber whose row exists.
SETTLE_SUBJECT = "lpad(:n::text, 64, '0')"
SETTLE_FORMS = {
    "two statements": f"""\\set n random(1, 100000)
INSERT INTO assignments (experiment_id, subject_hash, arm, first_time_ms) VALUES ('e', {SETTLE_SUBJECT}, 'b', 2)
  ON CONFLICT (experiment_id, subject_hash) DO NOTHING;
SELECT arm FROM assignments WHERE experiment_id = 'e' AND subject_hash = {SETTLE_SUBJECT};
""",
    "one statement": f"""\\set n random(1, 100000)
WITH inserted AS (
  INSERT INTO assignments (experiment_id, subject_hash, arm, first_time_ms) VALUES ('e', {SETTLE_SUBJECT}, 'b', 2)
  ON CONFLICT (experiment_id, subject_hash) DO NOTHING RETURNING arm)
SELECT arm, 1 FROM inserted UNION ALL SELECT arm, 0 FROM assignments WHERE experiment_id = 'e' AND subject_hash = {SETTLE_SUBJECT};
""",
}


def settle_sql(rounds):
    """pgbench, one connection, each form of a settlement of an existing row in turn: settlements a second."""
    binaries = benchmark.postgresql_binaries()
    if binaries is None:
        raise SystemExit("no PostgreSQL server binaries under /usr/lib/postgresql/*/bin")
    folder = benchmark.WORK / "realtime-ab-settle"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    cluster = benchmark.PostgreSQLCluster(binaries)
    rates = {form: [] for form in SETTLE_FORMS}
    try:
        psql = [str(binaries / "psql"), "-X", "-q", "-d", cluster.uri, "-c"]
        benchmark.run_quiet(psql + ["CREATE TABLE assignments (experiment_id TEXT NOT NULL, subject_hash TEXT NOT NULL, arm TEXT NOT NULL, "
                                    "first_time_ms BIGINT NOT NULL, PRIMARY KEY (experiment_id, subject_hash))"])
        benchmark.run_quiet(psql + ["INSERT INTO assignments SELECT 'e', lpad(n::text, 64, '0'), 'a', 1 FROM generate_series(1, 100000) AS n"])
        benchmark.run_quiet(psql + ["VACUUM ANALYZE assignments"])
        scripts = {}
        for index, (form, text) in enumerate(SETTLE_FORMS.items()):
            scripts[form] = folder / f"settle-{index}.sql"
            scripts[form].write_text(text)
        load_before = benchmark.load_average()
        for round_index in range(rounds):
            order = list(SETTLE_FORMS) if round_index % 2 == 0 else list(reversed(list(SETTLE_FORMS)))
            for form in order:
                benchmark.log(f"realtime-ab: settlement, {form} ({round_index + 1} of {rounds})")
                output = benchmark.run_quiet([str(binaries / "pgbench"), "-n", "-M", "extended", "-c", "1", "-T", "10",
                                              "-f", str(scripts[form]), cluster.uri], timeout=60)
                rates[form].append(float(re.search(r"tps = ([0-9.]+)", output).group(1)))
        load_after = benchmark.load_average()
    finally:
        cluster.stop()
    base = rates["two statements"]
    lines = ["| settlement of an existing row | settlements a second, each round | median | ÷ two statements, each round | median ratio |",
             "| --- | --- | --- | --- | --- |"]
    for form, series in rates.items():
        ratios = [rate / before for rate, before in zip(series, base)]
        lines.append(f"| {form} | {', '.join(f'{rate:,.0f}' for rate in series)} | {statistics.median(series):,.0f} | "
                     f"{', '.join(f'{ratio:.3f}' for ratio in ratios)} | {statistics.median(ratios):.3f} |")
    print("\n".join(lines))
    print(f"\nLoad average (1, 5, 15 min) before the rounds: {load_before}; after: {load_after}.")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", help="the msgc of the build before the change")
    parser.add_argument("--after", help="the msgc of the build with the change")
    parser.add_argument("--store", choices=["postgresql", "sqlite", "both"], default="both")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--settle-sql", action="store_true", help="time the two forms of a settlement instead (pgbench)")
    options = parser.parse_args(argv)
    if not 1 <= options.rounds <= 50:
        raise SystemExit("--rounds: 1 to 50")
    if options.settle_sql:
        return settle_sql(options.rounds)
    if not options.before or not options.after:
        raise SystemExit("give --before MSGC and --after MSGC (or --settle-sql)")
    builds = {"before": Path(options.before).resolve(), "after": Path(options.after).resolve()}
    for name, msgc in builds.items():
        if not benchmark.msgc_serves(msgc):
            raise SystemExit(f"--{name} {msgc} has no `msgc realtime serve`")
    kinds = ["postgresql", "sqlite"] if options.store == "both" else [options.store]
    folder = benchmark.WORK / "realtime-ab"
    folder.mkdir(parents=True, exist_ok=True)
    snapshot = benchmark.realtime_snapshot(builds["after"], folder, benchmark.experiment_content(folder))
    # The notifications' PKI is the requests' (the same seed): made first, as benchmark.py does.
    benchmark.realtime_notifications(folder / "notifications", 1)
    pki = folder / "notifications" / "pki"
    stores = folder / "stores"
    shutil.rmtree(stores, ignore_errors=True)
    stores.mkdir()
    key = benchmark.subject_key(stores)
    cluster = None
    servers = {}
    try:
        if "postgresql" in kinds:
            binaries = benchmark.postgresql_binaries()
            if binaries is None:
                raise SystemExit("no PostgreSQL server binaries under /usr/lib/postgresql/*/bin")
            cluster = benchmark.PostgreSQLCluster(binaries)
        for kind in kinds:
            for name, msgc in builds.items():
                if kind == "postgresql":
                    benchmark.run_quiet([str(cluster.binaries / "psql"), "-X", "-q", "-d", cluster.uri, "-c", f"CREATE DATABASE {name}"])
                    store = cluster.uri.rsplit("/", 1)[0] + "/" + name
                else:
                    store = f"sqlite:{stores / (name + '.sqlite')}"
                port = benchmark.free_port()
                command = [str(msgc), "realtime", "serve", "--snapshot", str(snapshot), "--host", "127.0.0.1",
                           "--app-apple-id", str(benchmark.REALTIME_APP_APPLE_ID), "--key-id", benchmark.REALTIME_KEY_ID,
                           "--issuer-id", benchmark.REALTIME_ISSUER_ID, "--root-certificate", str(pki / "root.der"),
                           "--key-file", str(pki / "offer-key.p8"), "--store", store, "--subject-key", str(key), "--port", str(port)]
                servers[(kind, name)] = benchmark.RealtimeServer(f"{name}, {kind}", command, port, store,
                                                                 stores / f"{kind}-{name}.stderr")
        for server in servers.values():
            benchmark.wait_until_serving(server.process, server.port, name=server.name)
        bodies, _ = benchmark.realtime_requests(folder / "load", benchmark.REALTIME_LOAD_REQUESTS)
        for server in servers.values():
            server.drive(bodies, benchmark.REALTIME_CONNECTIONS, benchmark.REALTIME_WARMUP_SECONDS)
        runs = {key: [] for key in servers}
        load_before = benchmark.load_average()
        for round_index in range(options.rounds):
            # Who goes first alternates, so that neither always follows the other's run.
            order = list(servers) if round_index % 2 == 0 else list(reversed(list(servers)))
            for key in order:
                server = servers[key]
                benchmark.log(f"realtime-ab: {server.name} ({round_index + 1} of {options.rounds})")
                before_metrics = server.metrics()
                store_cpu = cluster_cpu_seconds(cluster) if key[0] == "postgresql" else 0.0
                run = server.drive(bodies, benchmark.REALTIME_CONNECTIONS, benchmark.REALTIME_MAX_SECONDS)
                if key[0] == "postgresql":
                    run["storeCpuPerRequest"] = (cluster_cpu_seconds(cluster) - store_cpu) / max(1, run["requests"])
                after_metrics = server.metrics()
                start = benchmark.metric_by_label(before_metrics, "msgc_experiment_exposures_total", "assignment")
                end = benchmark.metric_by_label(after_metrics, "msgc_experiment_exposures_total", "assignment")
                run["hashed"] = end.get("hashed", 0) - start.get("hashed", 0)
                run["settled"] = sum(end.values()) - sum(start.values()) - (end.get("none", 0) - start.get("none", 0))
                runs[key].append(run)
        load_after = benchmark.load_average()
    finally:
        for server in servers.values():
            server.stop()
        if cluster is not None:
            cluster.stop()

    lines = [f"| store | build | requests a second, each round | median | after ÷ before, each round | median ratio | "
             "server CPU per request | store CPU per request | hashed of settled |", "| --- " * 9 + "|"]
    for kind in kinds:
        before, after = runs[(kind, "before")], runs[(kind, "after")]
        ratios = [a["rate"] / b["rate"] for a, b in zip(after, before)]
        for name, series in (("before", before), ("after", after)):
            rates = [run["rate"] for run in series]
            store_cpu = (f"{statistics.median(run['storeCpuPerRequest'] for run in series) * 1000:.3f} ms"
                         if kind == "postgresql" else "(in the server)")
            hashed = sum(run["hashed"] for run in series)
            settled = sum(run["settled"] for run in series)
            lines.append(
                f"| {kind} | {name} | {', '.join(f'{rate:,.0f}' for rate in rates)} | {statistics.median(rates):,.0f} | "
                + (f"{', '.join(f'{ratio:.3f}' for ratio in ratios)} | {statistics.median(ratios):.3f} | " if name == "after" else "| | ")
                + f"{statistics.median(run['cpuPerRequest'] for run in series) * 1000:.3f} ms | {store_cpu} | "
                f"{hashed:,.0f} of {settled:,.0f} |")
    print("\n".join(lines))
    print(f"\nLoad average (1, 5, 15 min) before the rounds: {load_before}; after: {load_after}.")


if __name__ == "__main__":
    main(sys.argv[1:])
