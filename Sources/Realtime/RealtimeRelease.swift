import Bundle
import Diagnostics
import Foundation
import Model

/// The realtime snapshot's steps that touch files, for `msgc realtime` and for a server that
/// loads its snapshot: each reads what it is given strictly and says in one sentence why not.
public enum RealtimeRelease {
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// The snapshot of the bundle in `bundle` (verified against its manifest first) for what
    /// Apple holds (`state`), keeping approved versions from the snapshot at `previous`.
    public static func snapshot(
        bundle: URL, bundlePath: String, state: StateFile, previous: URL?, previousPath: String?, generatorVersion: String
    ) throws(Failure) -> RealtimeSnapshot {
        let contents: BundleContents
        do {
            contents = try BundleReader.readVerified(bundle, displayPath: bundlePath)
        } catch {
            throw Failure(error.description)
        }
        let earlier = try previous.map { url throws(Failure) in try load(url, displayPath: previousPath ?? url.path) }
        do {
            return try SnapshotBuilder.build(bundle: contents, state: state, previous: earlier, generatorVersion: generatorVersion)
        } catch {
            throw Failure(error.description)
        }
    }

    /// Reads the snapshot file at `url`; `displayPath` is how messages name it.
    public static func load(_ url: URL, displayPath: String) throws(Failure) -> RealtimeSnapshot {
        switch FileReader.bytes(at: url, limit: RealtimeSnapshot.maxBytes) {
        case .success(let bytes):
            do {
                return try RealtimeSnapshot.decode(bytes, path: displayPath)
            } catch {
                throw Failure(error.description)
            }
        case .failure(.missing): throw Failure("snapshot '\(displayPath)' does not exist")
        case .failure(.tooLarge(let size)): throw Failure("snapshot '\(displayPath)' has \(size) bytes; msgc reads at most \(RealtimeSnapshot.maxBytes)")
        case .failure(.unreadable(let reason)): throw Failure("snapshot '\(displayPath)' cannot be read: \(reason)")
        }
    }

    /// What the snapshot written to `path` says as findings: each message left out for a
    /// reason no waiting settles (RTM001).
    public static func findings(_ snapshot: RealtimeSnapshot, path: String) -> [Diagnostic] {
        snapshot.omitted.compactMap { omission in
            switch omission.reason {
            case .rejected, .noOfferId, .noSwitchProduct:
                RealtimeDiagnostics.messageLeftOut.finding(
                    "'\(omission.key)' of \(omission.product) in \(omission.locale) is left out: \(omission.detail)",
                    at: SourceLocation(path: path),
                    fixIts: [FixIt(omission.reason == .rejected
                        ? "change the message's text (a new version is uploaded and reviewed again)"
                        : "add `\(omission.reason == .noOfferId ? "offer: OFFER_ID" : "switchTo: PRODUCT_ID")` to the message's source, then build again")])
            case .pending, .notUploaded, .notApproved:
                nil
            }
        }
    }

    /// One line per count: answerable messages, and those left out by reason.
    public static func summary(_ snapshot: RealtimeSnapshot, path: String) -> String {
        let answers = snapshot.products.flatMap(\.locales).flatMap(\.messages)
        let kept = answers.filter { $0.version == .previous }.count
        var lines = ["wrote \(path): \(snapshot.environment.rawValue) snapshot of \(snapshot.bundleDigest)"]
        lines.append("\(answers.count) message\(answers.count == 1 ? "" : "s") to answer with in \(snapshot.products.filter { !$0.locales.isEmpty }.count) product\(snapshot.products.count == 1 ? "" : "s")\(kept > 0 ? " (\(kept) the previous approved version while the new one waits)" : "")")
        var counts: [String: Int] = [:]
        for omission in snapshot.omitted { counts[omission.reason.rawValue, default: 0] += 1 }
        if !counts.isEmpty {
            let parts = RealtimeSnapshot.Omission.Reason.allCases.compactMap { reason in counts[reason.rawValue].map { "\($0) \(reason.rawValue)" } }
            lines.append("\(snapshot.omitted.count) left out: \(parts.joined(separator: ", ")) (the file's \"omitted\" says why for each)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
