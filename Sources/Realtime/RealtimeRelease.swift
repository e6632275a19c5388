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

    /// The snapshot of the bundle in `bundle` (verified against its manifest first, and refused
    /// without the `realtime.json` that puts its realtime facts under the digest) for what
    /// Apple holds (`state`), keeping approved versions from the snapshot at `previous`.
    public static func snapshot(
        bundle: URL, bundlePath: String, state: StateFile, previous: URL?, previousPath: String?, generatorVersion: String
    ) throws(Failure) -> (snapshot: RealtimeSnapshot, previous: RealtimeSnapshot?) {
        let contents: BundleContents
        do {
            contents = try BundleReader.readVerified(bundle, displayPath: bundlePath)
        } catch {
            throw Failure(error.description)
        }
        // What the snapshot trusts must be what the digest names: an earlier msgc kept it in
        // the manifest only, where an edit after review goes unseen.
        guard contents.realtime != nil else {
            throw Failure("'\(bundlePath)' has no \(RealtimeFacts.file) (an earlier msgc wrote it), so its digest does not cover the offers, products and weights a snapshot trusts; build it again with this msgc")
        }
        let earlier = try previous.map { url throws(Failure) in try load(url, displayPath: previousPath ?? url.path) }
        do {
            return (try SnapshotBuilder.build(bundle: contents, state: state, previous: earlier, generatorVersion: generatorVersion), earlier)
        } catch {
            throw Failure(error.description)
        }
    }

    /// Reads the snapshot file at `url`; `displayPath` is how messages name it.
    public static func load(_ url: URL, displayPath: String) throws(Failure) -> RealtimeSnapshot {
        try read(url, displayPath: displayPath).snapshot
    }

    /// `load`, with the bytes the snapshot was decoded from (a server names the file it serves
    /// by their digest).
    public static func read(_ url: URL, displayPath: String) throws(Failure) -> (snapshot: RealtimeSnapshot, bytes: [UInt8]) {
        switch FileReader.bytes(at: url, limit: RealtimeSnapshot.maxBytes) {
        case .success(let bytes):
            do {
                return (try RealtimeSnapshot.decode(bytes, path: displayPath), bytes)
            } catch {
                throw Failure(error.description)
            }
        case .failure(.missing): throw Failure("snapshot '\(displayPath)' does not exist")
        case .failure(.tooLarge(let size)): throw Failure("snapshot '\(displayPath)' has \(size) bytes; msgc reads at most \(RealtimeSnapshot.maxBytes)")
        case .failure(.unreadable(let reason)): throw Failure("snapshot '\(displayPath)' cannot be read: \(reason)")
        }
    }

    /// What the snapshot written to `path` says as findings: each message left out for a
    /// reason no waiting settles (RTM001), once per message and reason with its locales.
    public static func findings(_ snapshot: RealtimeSnapshot, path: String) -> [Diagnostic] {
        var locales: [String: [String]] = [:]
        var first: [String: RealtimeSnapshot.Omission] = [:]
        var order: [String] = []
        for omission in snapshot.omitted where [.rejected, .noOfferId, .noSwitchProduct].contains(omission.reason) {
            // A rejection is of one locale's version; a missing field of every locale alike.
            let id = "\(omission.product)\n\(omission.key)\n\(omission.reason.rawValue)" + (omission.reason == .rejected ? "\n\(omission.locale)" : "")
            if first[id] == nil {
                first[id] = omission
                order.append(id)
            }
            locales[id, default: []].append(omission.locale)
        }
        return order.map { id in
            let omission = first[id]!
            let fix = switch omission.reason {
            case .noOfferId: "add `offer: OFFER_ID` (the promotional offer's identifier in App Store Connect) to the message's source, then build again"
            case .noSwitchProduct: "add `switchTo: PRODUCT_ID` (another product of the same group) to the message's source, then build again"
            default: "change the message (a new version is uploaded and reviewed again)"
            }
            let why = omission.detail
            return RealtimeDiagnostics.messageLeftOut.finding(
                "'\(omission.key)' of \(omission.product) is left out in \(locales[id]!.joined(separator: ", ")): \(why)",
                at: SourceLocation(path: path), fixIts: [FixIt(fix)])
        }
    }

    /// Whether a snapshot answers nothing at all: no product has a locale with a message.
    public static func answersNothing(_ snapshot: RealtimeSnapshot) -> Bool {
        snapshot.products.allSatisfy { $0.locales.allSatisfy(\.messages.isEmpty) }
    }

    /// Why a snapshot that answers nothing is refused, with what it left out.
    public static func emptyRefusal(_ snapshot: RealtimeSnapshot) -> String {
        var counts: [String: Int] = [:]
        for omission in snapshot.omitted { counts[omission.reason.rawValue, default: 0] += 1 }
        let parts = RealtimeSnapshot.Omission.Reason.allCases.compactMap { reason in counts[reason.rawValue].map { "\($0) \(reason.rawValue)" } }
        return "the snapshot answers nothing: no product has a locale with a message Apple shows"
            + (parts.isEmpty ? "" : " (\(snapshot.omitted.count) left out: \(parts.joined(separator: ", ")))")
            + (!snapshot.omitted.isEmpty && snapshot.omitted.allSatisfy { $0.reason == .notUploaded }
                ? "; Apple holds none of this bundle's messages: is the state file of \(snapshot.environment.rawValue), and was the bundle applied?" : "")
            + "; a state file with empty lists (a failed or mis-pointed fetch) gives this, and a server would then answer every request with 404."
            + " A first production release whose content all waits for Apple's review is legitimately empty: give --allow-empty to write it; nothing was written"
    }

    /// Lines naming what `snapshot` no longer answers that `previous` did; empty when nothing is lost.
    public static func lostLines(_ snapshot: RealtimeSnapshot, previous: RealtimeSnapshot, previousPath: String) -> [String] {
        let lost = SnapshotBuilder.lost(from: previous, in: snapshot)
        var lines: [String] = []
        if !lost.pairs.isEmpty {
            lines.append("warning: \(lost.pairs.count) product and locale pair\(lost.pairs.count == 1 ? "" : "s") \(previousPath) answers no longer answered: " + lost.pairs.joined(separator: ", "))
        }
        if !lost.messages.isEmpty {
            lines.append("warning: \(lost.messages.count) message\(lost.messages.count == 1 ? "" : "s") \(previousPath) answers with no longer answered (the file's \"omitted\" says why for those the sources keep): " + lost.messages.joined(separator: ", "))
        }
        return lines
    }

    /// One line per count: answerable messages, and those left out by reason.
    public static func summary(_ snapshot: RealtimeSnapshot, path: String) -> String {
        let answers = snapshot.products.flatMap(\.locales).flatMap(\.messages)
        let kept = answers.filter { $0.version == .previous }.count
        var lines = ["wrote \(path): \(snapshot.environment.rawValue) snapshot of \(snapshot.bundleDigest)"]
        lines.append("\(answers.count) message\(answers.count == 1 ? "" : "s") to answer with in \(snapshot.products.filter { !$0.locales.isEmpty }.count) product\(snapshot.products.count == 1 ? "" : "s")\(kept > 0 ? " (\(kept) the previous approved version while the new one waits)" : "")")
        var counts: [String: Int] = [:]
        for omission in snapshot.omitted { counts[omission.reason.rawValue, default: 0] += 1 }
        // Every identifier differs between sandbox and production: a state file that holds none of
        // the bundle's uploads is most likely the other environment's.
        if let notUploaded = counts[RealtimeSnapshot.Omission.Reason.notUploaded.rawValue], notUploaded == snapshot.omitted.count, answers.isEmpty {
            lines.append("warning: Apple holds none of this bundle's messages; is the state file of \(snapshot.environment.rawValue), and was the bundle applied?")
        }
        if !counts.isEmpty {
            let parts = RealtimeSnapshot.Omission.Reason.allCases.compactMap { reason in counts[reason.rawValue].map { "\($0) \(reason.rawValue)" } }
            lines.append("\(snapshot.omitted.count) left out: \(parts.joined(separator: ", ")) (the file's \"omitted\" says why for each)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
