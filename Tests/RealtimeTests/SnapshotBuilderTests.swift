import Bundle
import Foundation
import Model
import Testing

@testable import Realtime

/// The snapshot from a manifest and a state file: what is approved, what waits, what is kept.
@Suite struct SnapshotBuilderTests {
    static let product = "com.example.app.yearly"
    static let monthly = "com.example.app.monthly"
    static func id(_ n: Int) -> String { String(format: "%08x-0000-5000-8000-000000000000", n) }

    /// A bundle of one product in en-US and de-DE: a default text message with an image, an
    /// offer with its id and a switch-plan message without `switchTo`.
    static func bundle(textIdentifier: String = id(1), environment: Environment = .production) -> BundleContents {
        var entries: [Manifest.Entry] = [
            .init(operation: .uploadImage, identifier: id(100), file: "images/\(id(100)).png", sha256: String(repeating: "0", count: 64), imageSize: .fullSize, source: "images/hero.png"),
        ]
        func message(_ identifier: String, _ key: String, _ type: MessageType, _ locale: String, images: [String] = [], offer: String? = nil) -> Manifest.Entry {
            var entry = Manifest.Entry(
                operation: .uploadMessage, identifier: identifier, file: "messages/\(identifier).json", sha256: String(repeating: "0", count: 64),
                product: product, locale: locale, key: key, source: "messages/a.yaml", requires: images)
            entry.messageType = type
            entry.offer = offer
            return entry
        }
        entries.append(message(textIdentifier, "winback", .text, "en-US", images: [id(100)]))
        entries.append(message(id(2), "half-price", .promotionalOffer, "en-US", offer: "yearly.half"))
        entries.append(message(id(3), "go-monthly", .switchPlan, "en-US"))
        entries.append(message(id(4), "winback", .text, "de-DE", images: [id(100)]))
        entries.append(.init(operation: .configureDefault, identifier: nil, file: "defaults/\(product)/en-US.json", sha256: String(repeating: "0", count: 64), product: product, locale: "en-US", key: "winback", source: "messages/a.yaml"))
        var manifest = Manifest(
            generatorVersion: "test", bundleId: "com.example.app", environment: environment, release: nil,
            digest: "sha256:" + String(repeating: "a", count: 64), operations: entries)
        manifest.products = [
            .init(id: product, group: "premium", choice: .firstUsable, realtime: [("half-price", 1), ("winback", 1)]),
            .init(id: monthly, group: "premium", choice: nil, realtime: []),
        ]
        return BundleContents(manifest: manifest, files: [], messageBodies: [:], defaultTargets: ["defaults/\(product)/en-US.json": textIdentifier])
    }

    static func state(messages: [String: ReviewState], images: [String: ReviewState]) -> StateFile {
        StateFile(
            messages: messages.map { HeldUpload(identifier: $0.key, state: $0.value, location: SourceLocation(path: "s")) },
            images: images.map { HeldUpload(identifier: $0.key, state: $0.value, imageSize: "FULL_SIZE", location: SourceLocation(path: "s")) })
    }

    @Test func productionAnswersOnlyWithApprovedMessagesAndImages() throws {
        let state = Self.state(messages: [Self.id(1): .approved, Self.id(2): .approved, Self.id(3): .approved, Self.id(4): .approved], images: [Self.id(100): .pending])
        let snapshot = try SnapshotBuilder.build(bundle: Self.bundle(), state: state, previous: nil, generatorVersion: "test")
        let english = try #require(snapshot.product(Self.product)?.locale("en-US"))
        #expect(english.messages.map(\.key) == ["half-price"])
        #expect(english.defaultKey == nil)
        #expect(english.messages.first?.offerIdentifier == "yearly.half")
        #expect(english.messages.first?.kind == .promotionalOffer)
        #expect(snapshot.product(Self.product)?.locale("de-DE") == nil)
        let reasons = Dictionary(uniqueKeysWithValues: snapshot.omitted.map { ("\($0.locale)/\($0.key)", $0.reason) })
        #expect(reasons == ["en-US/winback": .pending, "en-US/go-monthly": .noSwitchProduct, "de-DE/winback": .pending])
    }

    @Test func sandboxApprovesByItselfButNeedsTheUpload() throws {
        let state = Self.state(messages: [Self.id(1): .pending, Self.id(2): .approved, Self.id(4): .rejected], images: [Self.id(100): .pending])
        let snapshot = try SnapshotBuilder.build(bundle: Self.bundle(environment: .sandbox), state: state, previous: nil, generatorVersion: "test")
        #expect(snapshot.product(Self.product)?.locale("en-US")?.messages.map(\.key) == ["half-price", "winback"])
        #expect(snapshot.product(Self.product)?.locale("en-US")?.defaultKey == "winback")
        #expect(snapshot.omitted.first { $0.locale == "de-DE" }?.reason == .rejected)
    }

    /// An edited message waits for review: the last approved version answers meanwhile, while
    /// Apple still lists it approved; after approval, the new one.
    @Test func anEditWaitingForReviewKeepsThePreviousApprovedVersion() throws {
        let approvedAll = Self.state(messages: [Self.id(1): .approved, Self.id(2): .approved, Self.id(4): .approved], images: [Self.id(100): .approved])
        let first = try SnapshotBuilder.build(bundle: Self.bundle(), state: approvedAll, previous: nil, generatorVersion: "test")
        #expect(first.product(Self.product)?.locale("en-US")?.defaultKey == "winback")

        let edited = Self.bundle(textIdentifier: Self.id(9))
        let waiting = Self.state(messages: [Self.id(1): .approved, Self.id(2): .approved, Self.id(4): .approved, Self.id(9): .pending], images: [Self.id(100): .approved])
        let second = try SnapshotBuilder.build(bundle: edited, state: waiting, previous: first, generatorVersion: "test")
        let kept = try #require(second.product(Self.product)?.locale("en-US")?.message(key: "winback"))
        #expect(kept.identifier == Self.id(1))
        #expect(kept.version == .previous)
        #expect(second.product(Self.product)?.locale("en-US")?.defaultKey == "winback")
        #expect(second.omitted.contains { $0.identifier == Self.id(9) && $0.reason == .pending && $0.detail.contains(Self.id(1)) })

        // Apple no longer lists the old version: nothing to keep.
        let gone = Self.state(messages: [Self.id(2): .approved, Self.id(9): .pending], images: [Self.id(100): .approved])
        #expect(try SnapshotBuilder.build(bundle: edited, state: gone, previous: first, generatorVersion: "test").product(Self.product)?.locale("en-US")?.message(key: "winback") == nil)

        // Approved: the new one.
        let approved = Self.state(messages: [Self.id(1): .approved, Self.id(2): .approved, Self.id(9): .approved], images: [Self.id(100): .approved])
        let third = try SnapshotBuilder.build(bundle: edited, state: approved, previous: second, generatorVersion: "test")
        #expect(third.product(Self.product)?.locale("en-US")?.message(key: "winback")?.identifier == Self.id(9))
        #expect(third.product(Self.product)?.locale("en-US")?.message(key: "winback")?.version == .current)
    }

    @Test func thePreviousSnapshotMustBeOfTheSameAppAndEnvironment() throws {
        let state = Self.state(messages: [:], images: [:])
        let sandbox = try SnapshotBuilder.build(bundle: Self.bundle(environment: .sandbox), state: state, previous: nil, generatorVersion: "test")
        #expect(throws: SnapshotBuilder.Failure.self) {
            try SnapshotBuilder.build(bundle: Self.bundle(), state: state, previous: sandbox, generatorVersion: "test")
        }
    }

    @Test func aManifestWithoutTypesIsRefused() throws {
        var old = Self.bundle()
        old.manifest.products = nil
        #expect(throws: SnapshotBuilder.Failure.self) {
            try SnapshotBuilder.build(bundle: old, state: Self.state(messages: [:], images: [:]), previous: nil, generatorVersion: "test")
        }
    }

    /// Written and read back, the same snapshot; the same input, the same bytes.
    @Test func roundTripAndDeterminism() throws {
        let state = Self.state(messages: [Self.id(1): .approved, Self.id(2): .approved, Self.id(4): .approved], images: [Self.id(100): .approved])
        let snapshot = try SnapshotBuilder.build(bundle: Self.bundle(), state: state, previous: nil, generatorVersion: "test")
        let bytes = snapshot.json.canonicalBytes
        #expect(try RealtimeSnapshot.decode(bytes, path: "s.json") == snapshot)
        let again = try SnapshotBuilder.build(bundle: Self.bundle(), state: Self.state(messages: [Self.id(4): .approved, Self.id(2): .approved, Self.id(1): .approved], images: [Self.id(100): .approved]), previous: nil, generatorVersion: "test")
        #expect(again.json.canonicalBytes == bytes)
        #expect(try RealtimeSnapshot.decode(RealtimeDiagnostics.exampleSnapshot.json.canonicalBytes, path: "e") == RealtimeDiagnostics.exampleSnapshot)
    }

    @Test func aDamagedSnapshotIsRefusedWithItsPlace() {
        let good = String(decoding: RealtimeDiagnostics.exampleSnapshot.json.canonicalBytes, as: UTF8.self)
        for (from, to) in [("\"schemaVersion\": 1", "\"schemaVersion\": 2"), ("\"version\": \"current\"", "\"version\": \"later\""),
                           ("0f6c1c7e-6a55-5e0b-9d2e-4f1a8b2c3d4e", "../../etc/passwd"), ("\"default\": \"winback\"", "\"default\": \"half-price\"")] {
            #expect(good.contains(from))
            #expect(throws: JSONReadError.self) { try RealtimeSnapshot.decode(Array(good.replacingOccurrences(of: from, with: to).utf8), path: "s.json") }
        }
    }

    @Test func theCheckedInSchemaIsWhatTheCommandPrints() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("schemas/realtime-snapshot.schema.json")
        #expect(Array(try Data(contentsOf: url)) == RealtimeSnapshot.jsonSchema.canonicalBytes, "run `msgc schema realtime-snapshot > schemas/realtime-snapshot.schema.json`")
    }
}

extension SnapshotBuilderTests {
    /// Issue 43 case 1, the snapshot's half: a locale the bundle does not ship while its sources
    /// keep it (`notShipped`) is in `omitted` with the manifest's reason, answered meanwhile with
    /// the previous snapshot's approved version; `withheld-stale` is never answered with the old
    /// text; `lost` names what the new snapshot no longer answers.
    @Test func whatTheBundleDoesNotShipIsOmittedWithItsReason() throws {
        let approvedAll = Self.state(messages: [Self.id(1): .approved, Self.id(2): .approved, Self.id(4): .approved], images: [Self.id(100): .approved])
        let first = try SnapshotBuilder.build(bundle: Self.bundle(), state: approvedAll, previous: nil, generatorVersion: "test")
        #expect(first.product(Self.product)?.locale("de-DE")?.message(key: "winback")?.identifier == Self.id(4))

        // The German winback is no longer shipped (its translation is stale); the English one waits for translation of nothing.
        var bundle = Self.bundle()
        bundle.manifest.operations.removeAll { $0.locale == "de-DE" }
        bundle.manifest.notShipped = [.init(product: Self.product, locale: "de-DE", key: "winback", reason: .untranslated),
                                      .init(product: Self.product, locale: "fr-FR", key: "winback", reason: .failingRules)]
        let second = try SnapshotBuilder.build(bundle: bundle, state: approvedAll, previous: first, generatorVersion: "test")
        let german = try #require(second.product(Self.product)?.locale("de-DE")?.message(key: "winback"))
        #expect(german.identifier == Self.id(4) && german.version == .previous)
        let omitted = Dictionary(uniqueKeysWithValues: second.omitted.map { ("\($0.locale)/\($0.key)", $0) })
        #expect(omitted["de-DE/winback"]?.reason == .untranslated)
        #expect(omitted["de-DE/winback"]?.detail.contains("the previous version \(Self.id(4)), which Apple holds approved, answers meanwhile") == true)
        #expect(omitted["fr-FR/winback"]?.reason == .failingRules && omitted["fr-FR/winback"]?.identifier == "")
        // Written and read back: an omission without an identifier round-trips.
        #expect(try RealtimeSnapshot.decode(second.json.canonicalBytes, path: "s.json") == second)
        #expect(SnapshotBuilder.lost(from: first, in: second).messages.isEmpty)

        // The writer withholds the stale text: nothing answers there, and the new snapshot says what it lost.
        bundle.manifest.notShipped = [.init(product: Self.product, locale: "de-DE", key: "winback", reason: .withheldStale)]
        let withheld = try SnapshotBuilder.build(bundle: bundle, state: approvedAll, previous: first, generatorVersion: "test")
        #expect(withheld.product(Self.product)?.locale("de-DE") == nil)
        #expect(withheld.omitted.first { $0.locale == "de-DE" }?.reason == .withheldStale)
        let lost = SnapshotBuilder.lost(from: first, in: withheld)
        #expect(lost.pairs == ["\(Self.product) in de-DE"])
        #expect(lost.messages == ["\(Self.product)/winback in de-DE"])
    }
}
