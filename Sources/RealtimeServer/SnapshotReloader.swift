import Dispatch
import Realtime
import ServiceLifecycle
import Synchronization
import UnixSignals

/// Swaps the served snapshot for the file's new version: on SIGHUP, and when the file at the
/// path changes (a new file renamed over it, or the same file rewritten).
///
/// The file is polled (`FileSignature`, one `stat` per interval) rather than watched with
/// inotify, which loses a file renamed over the path once the watched inode is gone and needs
/// its watch set again each time; a `stat` is cheap at this pace. A changed signature is read
/// only once it has stayed the same for a whole interval, so a file being rewritten in place is
/// not read half-written. The new file is decoded and checked whole (`ServedSnapshot.load`)
/// before the swap; a file that fails, or that answers nothing (no product has a locale with a
/// message this server can send), keeps the snapshot served now, says why once, and is tried
/// again when it changes (or on the next SIGHUP).
///
/// Reloads run one at a time on a serial queue of their own, never on Swift's cooperative
/// threads and under no lock a request takes: reading and checking a large snapshot takes as
/// long as it takes, and the requests meanwhile are answered from the snapshot served, which
/// is swapped only once the next one is whole (`ResponderSlot`).
final class SnapshotReloader: Service {
    let path: String
    let configuration: RealtimeResponder.Configuration
    let slot: ResponderSlot
    let metrics: ServerMetrics
    let hangups: UnixSignalsSequence
    let pollInterval: Duration
    let notice: @Sendable (String) -> Void
    /// The signature of the last file that failed, so that it is not read (and reported) again
    /// until it changes. Written only on `queue`.
    private let rejected = Mutex<FileSignature?>(nil)
    private let queue = DispatchQueue(label: "msgc.realtime.reload", qos: .utility)

    init(
        path: String, configuration: RealtimeResponder.Configuration, slot: ResponderSlot, metrics: ServerMetrics,
        hangups: UnixSignalsSequence, pollInterval: Duration, notice: @escaping @Sendable (String) -> Void
    ) {
        self.path = path
        self.configuration = configuration
        self.slot = slot
        self.metrics = metrics
        self.hangups = hangups
        self.pollInterval = pollInterval
        self.notice = notice
    }

    func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await _ in self.hangups { await self.reload(trigger: "SIGHUP") }
            }
            group.addTask { await self.watch() }
            group.addTask { try? await gracefulShutdown() }
            // Whichever ends first (the shutdown, in practice) ends the others.
            await group.next()
            group.cancelAll()
        }
    }

    private func watch() async {
        var seen: FileSignature? = nil
        while !Task.isCancelled {
            try? await Task.sleep(for: pollInterval)
            let now = FileSignature.of(path)
            let known = rejected.withLock { $0 }
            guard let now, now != slot.served.signature, now != known else {
                seen = nil
                continue
            }
            if now == seen {
                await reload(trigger: "file changed")
                seen = nil
            } else {
                seen = now
            }
        }
    }

    /// Reads the file and swaps it in, or keeps the one served now and says why; on the
    /// reload queue, the caller suspended (not blocked) until it is done, or until it is
    /// cancelled (the server stopping does not wait for a reload to finish reading).
    func reload(trigger: String) async {
        let waiter = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let resume: @Sendable () -> Void = { waiter.withLock { $0.take() }?.resume() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                waiter.withLock { $0 = done }
                if Task.isCancelled { resume() }
                queue.async {
                    self.reloadNow(trigger: trigger)
                    resume()
                }
            }
        } onCancel: {
            resume()
        }
    }

    private func reloadNow(trigger: String) {
        let current = slot.served
        // A change seen while a reload (a SIGHUP's) was reading that same file: done already.
        if trigger == "file changed", let now = FileSignature.of(path), now == current.signature { return }
        // Taken before the read, as `ServedSnapshot.read` takes its own: a file that changes
        // while it is read (and fails half-written) is then seen as changed and read again,
        // rather than its finished version being marked rejected unread.
        let before = FileSignature.of(path)
        do {
            let next = try ServedSnapshot.load(
                path: path, configuration: configuration, generation: current.generation + 1, replacing: current)
            guard next.responder.answersSomething else {
                throw ServedSnapshot.Failure(description: "snapshot '\(path)' answers nothing: no product has a locale with a message this server can send")
            }
            metrics.serve(next.responder.snapshot)
            slot.swap(next)
            rejected.withLock { $0 = nil }
            metrics.recordReload(appliedGeneration: next.generation)
            notice("reloaded the snapshot (\(trigger)): generation \(next.generation), \(next.fileDigest)")
        } catch {
            rejected.withLock { $0 = before }
            metrics.recordReload(appliedGeneration: nil)
            notice("kept generation \(current.generation) (\(current.fileDigest)); the new snapshot cannot be served (\(trigger)): \(error)")
        }
    }
}
