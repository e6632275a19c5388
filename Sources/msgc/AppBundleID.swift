import ArgumentParser
import Bundle
import Diagnostics
import Foundation
import Model
import Parser

/// `--bundle-id` and `--content` of the commands that talk to Apple about an app without a
/// bundle in hand (`msgc state fetch`, `msgc realtime url`, `msgc realtime perftest`): the app
/// whose tokens they sign.
struct AppBundleIDOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The app's bundle id (default: the bundleId of the content tree's msgc.yaml).", valueName: "id"))
    var bundleId: String?

    @Option(name: .long, help: ArgumentHelp(
        "The content tree whose msgc.yaml names the app (default: the current folder when it holds msgc.yaml, else ./content).",
        valueName: "dir"))
    var content: String?

    /// The bundle id: what every source given on the command line says (`--bundle-id`,
    /// `--content`'s msgc.yaml, `also`: another option that knows it, such as state fetch's
    /// `--defaults BUNDLE`), which must agree; when none is given, the msgc.yaml of the content
    /// tree found as every command finds it (`ContentTreeLocation`). A usage error (exit 2)
    /// when the sources disagree or none knows it.
    func resolve(also: (option: String, bundleID: () throws -> String)? = nil) throws -> String {
        var named: [(source: String, id: String)] = []
        if let bundleId {
            guard !bundleId.isEmpty, ConfigParser.isPathSafe(bundleId) else {
                throw ValidationError("--bundle-id '\(bundleId)' may hold only ASCII letters, digits, '.', '_' and '-'")
            }
            named.append(("--bundle-id", bundleId))
        }
        if let content { named.append(("--content '\(content)' (its msgc.yaml)", try Self.bundleID(ofTree: content))) }
        if let also, bundleId == nil { named.append((also.option, try also.bundleID())) }
        if let first = named.first {
            if let other = named.dropFirst().first(where: { $0.id != first.id }) {
                throw ValidationError("\(first.source) names \(first.id) but \(other.source) names \(other.id); give one app")
            }
            return first.id
        }
        let tree = ContentTreeLocation.path(explicit: nil)
        guard FileManager.default.fileExists(atPath: (tree as NSString).appendingPathComponent(ProjectConfig.fileName)) else {
            throw ValidationError("which app? give --bundle-id ID, or --content DIR of a content tree whose msgc.yaml names it "
                + "(there is no msgc.yaml in the current folder nor in ./content)")
        }
        return try Self.bundleID(ofTree: tree)
    }

    /// The `bundleId` of the msgc.yaml in `tree`; a usage error naming the file and what is
    /// wrong when it cannot be read.
    static func bundleID(ofTree tree: String) throws -> String {
        let path = ContentTreeLocation.pathPrefix(tree) + ProjectConfig.fileName
        let bytes: [UInt8]
        switch FileReader.bytes(atPath: path, limit: 1 << 20) {
        case .success(let read): bytes = read
        case .failure(.missing): throw ValidationError("'\(path)' does not exist: --content names a content tree, the folder of msgc.yaml")
        case .failure(.tooLarge(let size)): throw ValidationError("'\(path)' has \(size) bytes; an msgc.yaml is a few kilobytes")
        case .failure(.unreadable(let reason)): throw ValidationError("'\(path)' cannot be read: \(reason)")
        }
        let (config, _, diagnostics) = ConfigParser.parse(bytes: bytes, path: path)
        if let config, !diagnostics.contains(where: { $0.severity == .error && $0.location.line == config.bundleId.location.line }) {
            return config.bundleId.value
        }
        let first = diagnostics.first { $0.severity == .error }
        let location = first.map { "\($0.location.path):\($0.location.line ?? 1):\($0.location.column ?? 1): \($0.message)" } ?? "no bundleId"
        throw ValidationError("cannot read the app's bundleId from '\(path)': \(location); fix it (`msgc lint`) or give --bundle-id")
    }
}
