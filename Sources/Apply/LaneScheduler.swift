import Bundle
import Foundation
import Synchronization

/// Runs an apply in three lanes at once, one per endpoint that changes something at Apple:
/// image uploads, message uploads, default configurations, each in the manifest's order as far
/// as what it requires allows.
///
/// Apple's budgets are per endpoint, so the lanes do not slow each other down: a first sandbox
/// release of I images and M messages takes about max(I, M) intervals, not I + M. Order is kept
/// where it matters: an entry waits until every identifier it requires that this run uploads is
/// settled (a message after each image it uses, a default after its message and images), and
/// `work` is then told how each of them went. Waiting goes through the pacer, so a lane that
/// stops the run (a 429 beyond `--max-wait`, a changed bundle, a refused key) wakes the others,
/// which send nothing more; what is left has no result.
final class LaneScheduler: Sendable {
    typealias Work = @Sendable (_ entry: Manifest.Entry, _ requirements: [String: Applier.Result]) throws(AppleClient.Failure)
        -> Applier.Result

    private let entries: [Manifest.Entry]
    private let pacer: Pacer
    /// Each entry's result so far, the failure that stopped the run and how many entries are
    /// done; `progress` is called holding it, so calls never overlap.
    private let state: Mutex<State>

    private struct State {
        var results: [Applier.Result?]
        var failure: AppleClient.Failure?
        var finished = 0
    }
    /// The entry that uploads each identifier in this run.
    private let producer: [String: Int]

    init(entries: [Manifest.Entry], pacer: Pacer) {
        self.entries = entries
        self.pacer = pacer
        state = Mutex(State(results: Array(repeating: nil, count: entries.count)))
        var producer: [String: Int] = [:]
        for (index, entry) in entries.enumerated() where entry.operation != .configureDefault {
            if let identifier = entry.identifier, producer[identifier] == nil { producer[identifier] = index }
        }
        self.producer = producer
    }

    /// Runs every lane to its end, or until one stops the run; each entry's result (nil for
    /// what was left) and the failure that stopped the run, if one did.
    func run(_ work: @escaping Work, progress: @escaping Applier.Progress) -> (results: [Applier.Result?], failure: AppleClient.Failure?) {
        let lanes = [Manifest.Entry.Operation.uploadImage, .uploadMessage, .configureDefault].map { operation in
            entries.indices.filter { entries[$0].operation == operation }
        }
        let group = DispatchGroup()
        for lane in lanes where !lane.isEmpty {
            group.enter()
            let thread = Thread { [self] in
                runLane(lane, work, progress)
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        group.wait()
        return state.withLock { ($0.results, $0.failure) }
    }

    /// Sends a lane's entries in order, except that an entry still waiting for what it requires
    /// lets the next ready one go first: the lane keeps its endpoint's pace instead of idling.
    private func runLane(_ lane: [Int], _ work: Work, _ progress: Applier.Progress) {
        var pending = lane
        while !pending.isEmpty {
            var ready: Int?
            do {
                try pacer.wait {
                    state.withLock { state in
                        ready = pending.firstIndex { index in requirements(of: index).allSatisfy { state.results[$0] != nil } }
                        return ready == nil
                    }
                }
            } catch {
                return
            }
            let index = pending.remove(at: ready!)
            let entry = entries[index]
            let waitsFor = requirements(of: index)
            let settled = state.withLock { state in
                Dictionary(waitsFor.map { (entries[$0].identifier ?? "", state.results[$0]!) }, uniquingKeysWith: { first, _ in first })
            }
            let result: Applier.Result
            do {
                result = try work(entry, settled)
            } catch {
                // The lane that stopped the run says why; the others only saw it stop.
                state.withLock { state in
                    if state.failure.map(Self.isEcho) ?? true, !Self.isEcho(error) || state.failure == nil { state.failure = error }
                }
                pacer.stop()
                return
            }
            state.withLock { state in
                state.results[index] = result
                state.finished += 1
                progress(state.finished, entries.count, entry, result)
            }
            pacer.signal()
        }
    }

    /// The entries of this run that upload what `index` requires.
    private func requirements(of index: Int) -> [Int] {
        entries[index].requires.compactMap { producer[$0] }.filter { $0 != index }
    }

    /// A lane's failure that only says another lane stopped the run.
    private static func isEcho(_ failure: AppleClient.Failure) -> Bool {
        if case .stopped(.stopped) = failure { true } else { false }
    }
}
