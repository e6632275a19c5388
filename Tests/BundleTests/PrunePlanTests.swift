import Bundle
import Foundation
import Model
import Testing

/// The one prune plan (`PrunePlan`), as a table: what is live stays, with its reason, whatever
/// stage asks (`msgc prune` with Apple's answers, `msgc diff` with Apple assumed).
@Suite struct PrunePlanTests {
    static let product = "com.example.app.yearly"
    static func id(_ n: Int) -> String { String(format: "%08x-0000-5000-8000-000000000000", n) }

    /// A message upload of `key` in `locale`, with its images.
    struct Upload {
        var identifier: String
        var key: String
        var locale: String
        var images: [String] = []
    }

    static func bundle(_ uploads: [Upload], defaults: [String: String] = [:], notShipped: [(locale: String, key: String, reason: String)] = [],
                       environment: Environment = .production) -> BundleContents {
        let zeros = String(repeating: "0", count: 64)
        var entries: [Manifest.Entry] = []
        var images = Set<String>()
        for upload in uploads {
            for image in upload.images where images.insert(image).inserted {
                entries.append(.init(operation: .uploadImage, identifier: image, file: "images/\(image).png", sha256: zeros, imageSize: .fullSize, source: "images/\(image).png"))
            }
        }
        var bodies: [String: UploadedMessageBody] = [:]
        for upload in uploads {
            let file = "messages/\(upload.identifier).json"
            entries.append(.init(
                operation: .uploadMessage, identifier: upload.identifier, file: file, sha256: zeros, product: product, locale: upload.locale,
                key: upload.key, source: "messages/a.yaml", requires: upload.images))
            bodies[file] = UploadedMessageBody(
                header: "h", body: "b", headerPosition: nil, image: upload.images.first.map { .init(identifier: $0, altText: "a") }, bullets: [])
        }
        var targets: [String: String] = [:]
        for (locale, message) in defaults.sorted(by: { $0.key < $1.key }) {
            let file = "defaults/\(product)/\(locale).json"
            entries.append(.init(operation: .configureDefault, identifier: nil, file: file, sha256: zeros, product: product, locale: locale, key: "k", source: "messages/a.yaml"))
            targets[file] = message
        }
        var manifest = Manifest(
            generatorVersion: "test", bundleId: "com.example.app", environment: environment, release: nil, digest: "sha256:" + zeros, operations: entries)
        if !notShipped.isEmpty {
            manifest.notShipped = notShipped.map { .init(product: product, locale: $0.locale, key: $0.key, reason: Manifest.NotShipped.Reason(rawValue: $0.reason)!) }
        }
        return BundleContents(manifest: manifest, files: [], messageBodies: bodies, defaultTargets: targets)
    }

    static func apple(_ messages: [String: ReviewState], images: [String: ReviewState] = [:], served: [String: String?] = [:]) -> PrunePlan.Apple {
        let location = SourceLocation(path: "state.json")
        return PrunePlan.Apple(
            state: StateFile(
                messages: messages.sorted { $0.key < $1.key }.map { HeldUpload(identifier: $0.key, state: $0.value, location: location) },
                images: images.sorted { $0.key < $1.key }.map { HeldUpload(identifier: $0.key, state: $0.value, imageSize: "FULL_SIZE", location: location) }),
            served: Dictionary(uniqueKeysWithValues: served.map { (PrunePlan.Pair(product: product, locale: $0.key), $0.value) }))
    }

    struct Row: CustomTestStringConvertible, Sendable {
        var name: String
        var live: BundleContents
        var earlier: BundleContents
        var apple: PrunePlan.Apple
        var snapshot: PrunePlan.Snapshot?
        /// `message ID`, `image ID`, `default of P in L`.
        var deleted: [String]
        var kept: [String: String]
        var untilApproval: Set<String> = []
        var testDescription: String { name }
    }

    static let old = id(1), new = id(2), de = id(3), image = id(100), newImage = id(101)

    static let rows: [Row] = [
        Row(name: "an approved replacement: the old version goes, its image too",
            live: bundle([Upload(identifier: new, key: "winback", locale: "en-US")]),
            earlier: bundle([Upload(identifier: old, key: "winback", locale: "en-US", images: [image])]),
            apple: apple([old: .approved, new: .approved], images: [image: .approved]),
            deleted: ["message \(old)", "image \(image)"], kept: [:]),
        Row(name: "a replacement in review: the approved old version and its image stay until approval (case 2)",
            live: bundle([Upload(identifier: new, key: "winback", locale: "en-US")]),
            earlier: bundle([Upload(identifier: old, key: "winback", locale: "en-US", images: [image])]),
            apple: apple([old: .approved, new: .pending], images: [image: .approved]),
            deleted: [], kept: ["message \(old)": "its replacement for \(product)/winback in en-US is not yet shown by Apple (\(new) is PENDING at Apple): Apple still shows this one; the next prune after approval deletes it",
                                "image \(image)": "message \(old), which stays at Apple, uses it"],
            untilApproval: ["message \(old)", "image \(image)"]),
        Row(name: "a rejected or missing replacement keeps the old version",
            live: bundle([Upload(identifier: new, key: "winback", locale: "en-US")]),
            earlier: bundle([Upload(identifier: old, key: "winback", locale: "en-US")]),
            apple: apple([old: .approved]),
            deleted: [], kept: ["message \(old)": "its replacement for \(product)/winback in en-US is not yet shown by Apple (\(new) is not uploaded to Apple): Apple still shows this one; the next prune after approval deletes it"],
            untilApproval: ["message \(old)"]),
        Row(name: "an approved replacement whose new image waits keeps the old version",
            live: bundle([Upload(identifier: new, key: "winback", locale: "en-US", images: [newImage])]),
            earlier: bundle([Upload(identifier: old, key: "winback", locale: "en-US")]),
            apple: apple([old: .approved, new: .approved], images: [newImage: .pending]),
            deleted: [], kept: ["message \(old)": "its replacement for \(product)/winback in en-US is not yet shown by Apple (\(newImage) is PENDING at Apple): Apple still shows this one; the next prune after approval deletes it"],
            untilApproval: ["message \(old)"]),
        Row(name: "an old version Apple never approved is not live: it goes while the new one waits",
            live: bundle([Upload(identifier: new, key: "winback", locale: "en-US")]),
            earlier: bundle([Upload(identifier: old, key: "winback", locale: "en-US")]),
            apple: apple([old: .rejected, new: .pending]),
            deleted: ["message \(old)"], kept: [:]),
        Row(name: "sandbox shows what is not rejected: a pending replacement lets the old version go",
            live: bundle([Upload(identifier: new, key: "winback", locale: "en-US")], environment: .sandbox),
            earlier: bundle([Upload(identifier: old, key: "winback", locale: "en-US")], environment: .sandbox),
            apple: apple([old: .approved, new: .pending]),
            deleted: ["message \(old)"], kept: [:]),
        Row(name: "a locale waiting for its translation keeps its message and the default Apple serves (case 1)",
            live: bundle([Upload(identifier: new, key: "winback", locale: "en-US")], defaults: ["en-US": new], notShipped: [("de-DE", "winback", "untranslated")]),
            earlier: bundle([Upload(identifier: old, key: "winback", locale: "en-US"), Upload(identifier: de, key: "winback", locale: "de-DE")],
                            defaults: ["en-US": old, "de-DE": de]),
            apple: apple([old: .approved, new: .approved, de: .approved], served: ["en-US": new, "de-DE": de]),
            deleted: ["message \(old)"],
            kept: ["default of \(product) in de-DE": "Apple serves \(de) there; this bundle does not ship \(product)/winback in de-DE (untranslated) although its sources configure it: Apple keeps showing this version meanwhile",
                   "message \(de)": "Apple serves it as the default of \(product) in de-DE, which stays: this bundle does not ship \(product)/winback in de-DE (untranslated) although its sources configure it: Apple keeps showing this version meanwhile"]),
        Row(name: "a locale the writer removed goes, default first",
            live: bundle([Upload(identifier: new, key: "winback", locale: "en-US")], defaults: ["en-US": new]),
            earlier: bundle([Upload(identifier: new, key: "winback", locale: "en-US"), Upload(identifier: de, key: "winback", locale: "de-DE")],
                            defaults: ["en-US": new, "de-DE": de]),
            apple: apple([new: .approved, de: .approved], served: ["en-US": new, "de-DE": de]),
            deleted: ["default of \(product) in de-DE", "message \(de)"], kept: [:]),
        Row(name: "what a deployed snapshot answers with stays, images included, even with the replacement approved",
            live: bundle([Upload(identifier: new, key: "winback", locale: "en-US")]),
            earlier: bundle([Upload(identifier: old, key: "winback", locale: "en-US", images: [image])]),
            apple: apple([old: .approved, new: .approved], images: [image: .approved]),
            snapshot: PrunePlan.Snapshot(path: "live.json", messages: [old.uppercased()], images: [image]),
            deleted: [], kept: ["message \(old)": "the realtime snapshot live.json answers with it",
                                "image \(image)": "the realtime snapshot live.json answers with a message that shows it"]),
    ]

    @Test(arguments: rows) func plan(_ row: Row) {
        let plan = PrunePlan.make(live: row.live, earlier: [("old", row.earlier)], apple: row.apple, snapshots: row.snapshot.map { [$0] } ?? [])
        #expect(plan.deletions.map(\.name) == row.deleted)
        #expect(Dictionary(uniqueKeysWithValues: plan.kept.map { ($0.name, $0.why) }) == row.kept)
        #expect(Set(plan.kept.filter(\.untilApproval).map(\.name)) == row.untilApproval)
        #expect(plan.isCovered(by: row.deleted.count))
    }

    /// `msgc diff`'s view (Apple assumed approved, after the apply) holds what the sources keep.
    @Test func diffsViewKeepsWhatWaitsForTranslation() {
        let live = Self.bundle([Upload(identifier: Self.new, key: "winback", locale: "en-US")], defaults: ["en-US": Self.new], notShipped: [("de-DE", "winback", "withheld-stale")])
        let earlier = Self.bundle([Upload(identifier: Self.old, key: "winback", locale: "en-US"), Upload(identifier: Self.de, key: "winback", locale: "de-DE")],
                                  defaults: ["en-US": Self.old, "de-DE": Self.de])
        let plan = PrunePlan.make(live: live, earlier: [("old", earlier)], apple: .assumed(live: live, earlier: [earlier]))
        #expect(plan.deletions.map(\.name) == ["message \(Self.old)"])
        #expect(plan.kept.map(\.name).contains("default of \(Self.product) in de-DE"))
        #expect(plan.kept.map(\.name).contains("message \(Self.de)"))
    }
}
