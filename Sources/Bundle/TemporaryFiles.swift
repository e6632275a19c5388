import Dispatch
import Foundation
import Synchronization

/// The temporary files and folders msgc is writing, removed if it is interrupted.
///
/// A bundle, a preview page or an XLIFF file is written beside its destination under a name no
/// other process can have (`mkdtemp`, `mkstemp`: random, created exclusively), then renamed into
/// place. Ctrl-C (SIGINT), SIGTERM and SIGHUP remove what is registered here before msgc ends,
/// so an interrupted build leaves nothing behind; a killed one (SIGKILL) leaves its folder for
/// the next build to remove (`BundleWriter`).
public enum TemporaryFiles {
    private struct Registry {
        var paths: Set<String> = []
        var sources: [DispatchSourceSignal] = []
    }

    /// Held for every step of writing, so that a signal's handler, which takes it to remove
    /// what is registered, falls between two steps.
    private static let registry = Mutex(Registry())

    public static func unregister(_ path: String) {
        registry.withLock { _ = $0.paths.remove(path) }
    }

    /// Runs one step of writing into a temporary path (creating a file or folder, renaming it
    /// into place) so that an interrupting signal falls between two steps, never inside one:
    /// its handler waits for the step, removes every registered path, and ends msgc before the
    /// next step can start.
    static func step<Value, Failure: Error>(_ body: () throws(Failure) -> Value) throws(Failure) -> Value {
        // The value leaves through `outcome`, not as the lock's result: that must be a value no
        // other thread can reach, which a caller's generic value cannot promise.
        var outcome: Result<Value, Failure>?
        registry.withLock { _ in
            do throws(Failure) { outcome = .success(try body()) } catch { outcome = .failure(error) }
        }
        return try outcome!.get()
    }

    /// Removes every registered path and ends msgc with `status`. Called on an interrupting
    /// signal; it ends holding the lock, so that no step of writing starts again while msgc ends.
    static func removeAllAndExit(_ status: Int32) -> Never {
        registry.withLock { registry -> Never in
            for path in registry.paths { try? FileManager.default.removeItem(atPath: path) }
            _exit(status)
        }
    }

    /// Handles SIGINT, SIGTERM and SIGHUP: removes every registered temporary path, then ends
    /// msgc with status 128 + the signal's number, as a shell reports a process the signal ended.
    ///
    /// It ends with `_exit`, not `exit`: other threads may still be working (hashing a bundle's
    /// files with libcrypto), and `exit` would run the process's atexit handlers under them,
    /// libcrypto's cleanup among them, which freed what those threads were using and ended a
    /// build in SIGSEGV or SIGBUS rather than its status. Nothing is left to flush: msgc writes
    /// its output unbuffered, and the registry's lock, kept, stops every further write.
    public static func removeOnInterrupt() {
        let queue = DispatchQueue(label: "msgc.signals")
        registry.withLock { registry in
            for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
                source.setEventHandler { removeAllAndExit(128 + signalNumber) }
                source.resume()
                registry.sources.append(source)
            }
        }
    }

    /// Stops handling SIGINT, SIGTERM and SIGHUP here, for a command that handles them itself
    /// and writes no temporary file (`msgc realtime serve`: graceful shutdown, reload).
    public static func handOverSignals() {
        registry.withLock { registry in
            for source in registry.sources { source.cancel() }
            registry.sources.removeAll()
        }
    }

    /// Makes a folder named `prefix` followed by six random characters, in `parent`, and
    /// registers it in the same step. `unregister` it once it is renamed into place or removed.
    static func makeFolder(in parent: String, prefix: String) -> String? {
        var template = Array((parent as NSString).appendingPathComponent(prefix + "XXXXXX").utf8CString)
        return registry.withLock { registry in
            guard let path = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!).map { String(cString: $0) } }) else {
                return nil
            }
            registry.paths.insert(path)
            return path
        }
    }

    /// Makes and opens a file named `prefix` followed by six random characters, in `parent`,
    /// and registers it in the same step. `unregister` it once it is renamed or removed.
    static func makeFile(in parent: String, prefix: String) -> (path: String, descriptor: Int32)? {
        var template = Array((parent as NSString).appendingPathComponent(prefix + "XXXXXX").utf8CString)
        return registry.withLock { registry in
            let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard descriptor >= 0 else { return nil }
            let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            registry.paths.insert(path)
            return (path, descriptor)
        }
    }
}
