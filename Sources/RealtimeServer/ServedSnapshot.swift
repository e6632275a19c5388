import Bundle
import Foundation
import Model
import Realtime

/// One snapshot file as the server answers from it: read, decoded and checked whole, with the
/// responder built over it. Immutable; a reload makes a new one and swaps it in
/// (`ResponderSlot`), so a request is answered from one file or the other, never a mix.
public struct ServedSnapshot: Sendable {
    public let responder: RealtimeResponder
    /// `sha256:` of the file's bytes: every instance behind a load balancer that serves the same
    /// file says the same digest on /healthz.
    public let fileDigest: String
    /// 1 for the file read at start, then one more for each file swapped in.
    public let generation: Int
    let signature: FileSignature?

    /// Why a snapshot file cannot be served; the text names the file and the problem.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// A snapshot file read and decoded, before a responder is built over it.
    public struct File: Sendable {
        public let snapshot: RealtimeSnapshot
        public let digest: String
        let signature: FileSignature?
    }

    /// Reads and decodes `path`. Fails on a file that is missing, too large or not a snapshot
    /// (`RealtimeSnapshot.decode`).
    public static func read(path: String) throws(Failure) -> File {
        // The signature is taken before the read: if the file changes while it is read, the
        // watcher sees a signature other than this one and reads it again.
        let signature = FileSignature.of(path)
        do {
            let (snapshot, bytes) = try RealtimeRelease.read(URL(fileURLWithPath: path), displayPath: path)
            return File(snapshot: snapshot, digest: "sha256:" + Digest.sha256Hex(bytes), signature: signature)
        } catch {
            throw Failure(description: error.description)
        }
    }

    /// The responder over `file`. Fails when the responder would refuse every request
    /// (`configurationProblem`: a production snapshot without the app's Apple ID, no readable
    /// root); and, on a reload, on a snapshot of another app or environment
    /// than `replacing` (the offer key and the app's id were given for that one).
    public init(
        file: File, path: String, configuration: RealtimeResponder.Configuration, generation: Int, replacing: ServedSnapshot? = nil
    ) throws(Failure) {
        let snapshot = file.snapshot
        if let served = replacing?.responder.snapshot,
           served.bundleId != snapshot.bundleId || served.environment != snapshot.environment {
            throw Failure(description: "snapshot '\(path)' is of \(snapshot.bundleId) in \(snapshot.environment.rawValue), but this server answers for \(served.bundleId) in \(served.environment.rawValue); start a server for it instead")
        }
        responder = RealtimeResponder(snapshot: snapshot, configuration: configuration)
        if let problem = responder.configurationProblem {
            throw Failure(description: "snapshot '\(path)' cannot be served: \(problem)")
        }
        fileDigest = file.digest
        self.generation = generation
        signature = file.signature
    }

    /// `read` and `init`: the next snapshot for a reload.
    static func load(
        path: String, configuration: RealtimeResponder.Configuration, generation: Int, replacing: ServedSnapshot
    ) throws(Failure) -> ServedSnapshot {
        try ServedSnapshot(file: read(path: path), path: path, configuration: configuration, generation: generation, replacing: replacing)
    }
}
