import Dispatch
import ExperimentStore
import Foundation
@testable import RealtimeServer
import Testing
import TestSupport

/// A subscriber's arm from the process when it is kept, else from the store (then kept): on
/// real stores, with two servers on one, and with `--keep`'s retention.
@Suite(.ownThreads) struct StickyArmsTests {
    static let key = try! SubjectKey(bytes: Array(repeating: 0x6B, count: 32))

    static func subject(_ number: Int) -> SubjectHash {
        key.hash(originalTransactionId: "\(3_000_000_000_000_000 + number)")
    }

    /// What `settle` answered, as text: `arm first`, `arm again`, or `hashed`.
    static func said(_ settled: (arm: String, isFirst: Bool)?) -> String {
        settled.map { "\($0.arm) \($0.isFirst ? "first" : "again")" } ?? "hashed"
    }

    @Test func aKeptArmCostsNoStoreCall() async throws {
        let fixture = try StoreFixture(.sqlite)
        let store = try await fixture.open()
        let other = try await fixture.open()
        let metrics = ServerMetrics(version: "test")
        let cache = AssignmentCache(capacity: 100, validityMilliseconds: 3_600_000)
        let arms = StickyArms(store: store, cache: cache, deadline: .seconds(10), metrics: metrics)
        #expect(Self.said(await arms.settle(experiment: "e", subject: Self.subject(1), proposedArm: "a", at: 1)) == "a first")
        // Another server settled subscriber 2: their arm comes from the store, and is kept too.
        _ = try await other.settleAssignment(experiment: "e", subject: Self.subject(2), proposedArm: "c", timeMilliseconds: 1)
        #expect(Self.said(await arms.settle(experiment: "e", subject: Self.subject(2), proposedArm: "a", at: 2)) == "c again")
        #expect(Self.said(await arms.settle(experiment: "e", subject: Self.subject(1), proposedArm: "b", at: 3)) == "a again")
        #expect(cache.count == 2)
        // With the store closed, every call to it fails: the kept arms are still answered, a new
        // subscriber is not (the caller answers from the hash).
        await store.close()
        await other.close()
        #expect(Self.said(await arms.settle(experiment: "e", subject: Self.subject(1), proposedArm: "b", at: 4)) == "a again")
        #expect(Self.said(await arms.settle(experiment: "e", subject: Self.subject(2), proposedArm: "b", at: 5)) == "c again")
        #expect(Self.said(await arms.settle(experiment: "e", subject: Self.subject(3), proposedArm: "b", at: 6)) == "hashed")
        #expect(metrics.value(#"msgc_experiment_assignment_cache_total{result="hit"}"#) == 3)
        #expect(metrics.value(#"msgc_experiment_assignment_cache_total{result="miss"}"#) == 3)
    }

    /// An arm the store did not settle in time is answered from the hash and never kept: the
    /// next exposure asks the store again.
    @Test func theHashedFallbackIsNotKept() async throws {
        let fixture = try StoreFixture(.sqlite)
        let store = try await fixture.open()
        let blocker = try await fixture.open()
        let metrics = ServerMetrics(version: "test")
        let cache = AssignmentCache(capacity: 100, validityMilliseconds: 3_600_000)
        let held = Flag()
        let release = DispatchSemaphore(value: 0)
        let holding = Task(executorPreference: WaitingThreads.shared) { try await StoreFixture.hold("assignments", on: blocker, backend: .sqlite, held: held, release: release) }
        #expect(await wait(seconds: 60) { held.isSet })
        let hurried = StickyArms(store: store, cache: cache, deadline: .milliseconds(50), metrics: metrics)
        #expect(Self.said(await hurried.settle(experiment: "e", subject: Self.subject(1), proposedArm: "a", at: 1)) == "hashed")
        #expect(cache.count == 0)
        release.signal()
        try await holding.value
        // The store's thread went on with the abandoned insert once the lock was released: the
        // store has the row, and now the process keeps it too.
        let patient = StickyArms(store: store, cache: cache, deadline: .seconds(60), metrics: metrics)
        #expect(Self.said(await patient.settle(experiment: "e", subject: Self.subject(1), proposedArm: "a", at: 2)).hasPrefix("a "))
        #expect(cache.arm(experiment: "e", subject: Self.subject(1), at: 3) == "a")
        #expect(metrics.value(#"msgc_experiment_assignment_cache_total{result="miss"}"#) == 2)
        await blocker.close()
        await store.close()
    }

    /// Two servers on one store, each with its own kept arms, settling the same subscribers at
    /// once, three times over: one arm per subscriber everywhere, made first by exactly one call,
    /// the store's; after the first round, every call is answered from the process.
    @Test(arguments: StoreFixture.backends)
    func twoServersGiveEachSubscriberOneArm(_ backend: StoreFixture.Backend) async throws {
        let fixture = try StoreFixture(backend)
        let servers = try await [fixture.open(), fixture.open()]
        let metrics = [ServerMetrics(version: "test"), ServerMetrics(version: "test")]
        let arms = (0..<2).map { index in
            StickyArms(store: servers[index], cache: AssignmentCache(capacity: 1_000, validityMilliseconds: 3_600_000),
                       deadline: .seconds(10), metrics: metrics[index])
        }
        let subjects = (0..<60).map(Self.subject)
        var results: [[(arm: String, isFirst: Bool)?]] = Array(repeating: [], count: subjects.count)
        for round in 0..<3 {
            let settled = await withTaskGroup(of: (Int, (arm: String, isFirst: Bool)?).self) { group in
                for (number, subject) in subjects.enumerated() {
                    for server in 0..<2 {
                        group.addTask {
                            let proposed = server == 0 ? "a" : "b"
                            return (number, await arms[server].settle(experiment: "e", subject: subject, proposedArm: proposed, at: Int64(round)))
                        }
                    }
                }
                var settled: [(Int, (arm: String, isFirst: Bool)?)] = []
                for await result in group { settled.append(result) }
                return settled
            }
            for (number, result) in settled { results[number].append(result) }
        }
        let recorded = Dictionary(uniqueKeysWithValues: try await servers[0].assignments(experiment: "e").map { ($0.subject, $0.arm) })
        for (number, calls) in results.enumerated() {
            #expect(calls.count == 6 && calls.allSatisfy { $0 != nil }, "subscriber \(number): \(calls.map(Self.said))")
            #expect(Set(calls.compactMap { $0?.arm }) == [recorded[subjects[number]] ?? "none"], "subscriber \(number): \(calls.map(Self.said))")
            #expect(calls.filter { $0?.isFirst == true }.count == 1, "subscriber \(number): \(calls.map(Self.said))")
        }
        for index in 0..<2 {
            #expect(metrics[index].value(#"msgc_experiment_assignment_cache_total{result="miss"}"#) == 60)
            #expect(metrics[index].value(#"msgc_experiment_assignment_cache_total{result="hit"}"#) == 120)
        }
        for server in servers { await server.close() }
    }

    /// `--keep`'s retention, as the decision log applies it at start: the store deletes the
    /// assignment no decision refers to any more, and the process drops the arm it did not use
    /// within half the keep, keeping the one it did.
    @Test func retentionTrimsTheKeptArms() async throws {
        let fixture = try StoreFixture(.sqlite)
        let store = try await fixture.open()
        let now = Date()
        let milliseconds = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        let keep: Int64 = 3_600_000
        _ = try await store.settleAssignment(experiment: "e", subject: Self.subject(1), proposedArm: "a", timeMilliseconds: milliseconds - keep - 1)
        _ = try await store.settleAssignment(experiment: "e", subject: Self.subject(2), proposedArm: "b", timeMilliseconds: milliseconds - 1_000)
        let cache = AssignmentCache(keepMilliseconds: keep)
        cache.keep("a", experiment: "e", subject: Self.subject(1), at: milliseconds - keep / 2)
        cache.keep("b", experiment: "e", subject: Self.subject(2), at: milliseconds - 1_000)
        let recorder = DecisionRecorder(
            store: store, settings: .init(keepMilliseconds: keep), assignmentCache: cache, metrics: ServerMetrics(version: "test"),
            notice: { _ in }, now: { now })
        let running = Task(executorPreference: WaitingThreads.shared) { try await recorder.run() }
        #expect(await wait(seconds: 30) { cache.count == 1 })
        running.cancel()
        try? await running.value
        #expect(cache.arm(experiment: "e", subject: Self.subject(1), at: milliseconds) == nil)
        #expect(cache.arm(experiment: "e", subject: Self.subject(2), at: milliseconds) == "b")
        #expect(try await store.assignments(experiment: "e").map(\.subject) == [Self.subject(2)])
        await store.close()
    }
}
