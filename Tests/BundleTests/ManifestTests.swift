@testable import Bundle
import Foundation
import Model
import Testing

/// One typed manifest: what the builder encodes is what the reader decodes, and the reader
/// refuses anything that would send a request msgc did not plan.
@Suite struct ManifestTests {
    /// Production with a state file fills every list the manifest has.
    static func manifest() throws -> Manifest {
        let state = try BundleStateTests.state(.production, .pending, extra: [
            HeldUpload(identifier: "0000dead-0000-4000-8000-000000000001", state: .approved, location: BundleStateTests.here),
            HeldUpload(identifier: "0000dead-0000-4000-8000-000000000002", state: .rejected, imageSize: "FULL_SIZE", location: BundleStateTests.here),
        ])
        return try BundleStateTests.build(.production, state: state).0.manifest
    }

    @Test func decodingWhatTheBuilderWroteGivesTheSameManifest() throws {
        for manifest in [try Self.manifest(), try BundleBuilder.build(BundleTests.input(.sandbox)).manifest] {
            let bytes = manifest.json.canonicalBytes
            let decoded = try Manifest.decode(bytes, path: "manifest.json")
            #expect(decoded == manifest)
            #expect(decoded.json.canonicalBytes == bytes)
        }
        let full = try Self.manifest()
        #expect(full.products?.isEmpty == false)
        #expect(full.entries.filter { $0.operation == .uploadMessage }.allSatisfy { $0.messageType != nil })
        #expect(full.present?.isEmpty == false)
        #expect(full.deferred?.isEmpty == false)
        #expect(full.unreferenced?.count == 2)
    }

    /// A manifest written before msgc recorded types and products still reads, without them;
    /// one with them reads strictly.
    @Test func realtimeMembersAreOptionalAndChecked() throws {
        let manifest = try Self.manifest()
        var older = manifest
        older.products = nil
        for index in older.operations.indices { older.operations[index].messageType = nil }
        let decoded = try Manifest.decode(older.json.canonicalBytes, path: "manifest.json")
        #expect(decoded.products == nil)
        let text = String(decoding: manifest.json.canonicalBytes, as: UTF8.self)
        for (from, to) in [("\"messageType\": \"text\"", "\"messageType\": \"banner\""), ("\"id\": \"", "\"id\": \"../")] {
            #expect(text.contains(from))
            #expect(throws: JSONReadError.self) { try Manifest.decode(Array(text.replacingOccurrences(of: from, with: to).utf8), path: "m") }
        }
    }

    /// A weight is bounded where a manifest is read, as in msgc.yaml: the largest reads, one
    /// past it (or Int64's largest, which would overflow a sum) is refused with the range.
    @Test func weightsAreBoundedWhereRead() throws {
        var manifest = try Self.manifest()
        var products = try #require(manifest.products)
        let keys = manifest.operations.compactMap { $0.product == products[0].id ? $0.key : nil }
        products[0].choice = .weighted
        products[0].realtime = [(message: keys.first ?? "a", weight: RealtimeChoice.maxWeight), (message: keys.last ?? "b", weight: 1)]
        manifest.products = products
        let decoded = try Manifest.decode(manifest.json.canonicalBytes, path: "manifest.json")
        #expect(decoded.products?[0].realtime.map(\.weight) == [RealtimeChoice.maxWeight, 1])
        for weight in [RealtimeChoice.maxWeight + 1, Int.max] {
            products[0].realtime[0].weight = weight
            manifest.products = products
            #expect {
                try Manifest.decode(manifest.json.canonicalBytes, path: "manifest.json")
            } throws: { error in
                "\(error)".contains("a whole number from 1 to 1000000")
            }
        }
    }

    /// Edits a hand could make, each refused at its line with what msgc expected.
    @Test func refusesEntriesThatWouldSendAnotherRequest() throws {
        let text = String(decoding: try Self.manifest().json.canonicalBytes, as: UTF8.self)
        let firstMessage = try #require(text.range(of: "/inApps/v1/messaging/message/"))
        let identifier = String(text[firstMessage.upperBound...].prefix(36))
        let cases: [(String, String, String)] = [
            ("/inApps/v1/messaging/message/" + identifier, "/inApps/v1/messaging/message/../default", "\"method\" and \"path\" must be PUT /inApps/v1/messaging/message/"),
            ("\"identifier\": \"\(identifier)\"", "\"identifier\": \"\(identifier.uppercased())\"", "\"identifier\" must be a lower-case UUID"),
            ("\"product\": \"", "\"product\": \"a/", "\"product\" must be one path segment"),
            ("\"locale\": \"", "\"locale\": \"?x=", "\"locale\" must be one path segment"),
            ("\"environment\": \"production\"", "\"environment\": \"staging\"", "\"environment\" must be sandbox or production, not 'staging'"),
            ("\"imageSize\": \"FULL_SIZE\"", "\"imageSize\": \"HUGE\"", "an uploadImage entry needs \"query\""),
            ("\"op\": \"uploadMessage\"", "\"op\": \"deleteMessage\"", "unknown \"op\""),
            ("\"digest\": \"sha256:", "\"digest\": \"md5:", "\"digest\" must be sha256:"),
        ]
        for (original, replacement, expected) in cases {
            let range = try #require(text.range(of: original), "\(original)")
            let edited = text.replacingCharacters(in: range, with: replacement)
            #expect(throws: JSONReadError.self, "\(replacement)") { try Manifest.decode(Array(edited.utf8), path: "m.json") }
            do {
                _ = try Manifest.decode(Array(edited.utf8), path: "m.json")
            } catch {
                #expect(error.description.hasPrefix("m.json:"), "\(error)")
                #expect(error.description.contains(expected), "\(error)")
            }
        }
    }

    @Test func refusesWhatIsNotAManifest() {
        let cases: [(String, String)] = [
            ("[]", "m.json:1:1: a manifest is a JSON object, not an array"),
            ("{\"format\": \"zip\"}", "'m.json' is not the manifest of an msgc bundle: its \"format\" is not \"msgc-bundle\""),
            ("{\"format\": \"msgc-bundle\", \"formatVersion\": 1}", "m.json:1:1: missing \"generator\", an object with the name and version of what wrote the bundle"),
            ("{", "m.json:1:2: not valid JSON"),
        ]
        for (text, expected) in cases {
            do {
                _ = try Manifest.decode(Array(text.utf8), path: "m.json")
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.description.hasPrefix(expected), "\(error)")
            }
        }
    }

    /// `notShipped`: written sorted, only when not empty, read back strictly.
    @Test func notShippedRoundTripsAndIsReadStrictly() throws {
        var manifest = try Self.manifest()
        #expect(!String(decoding: manifest.json.canonicalBytes, as: UTF8.self).contains("notShipped"))
        manifest.notShipped = [
            .init(product: "com.example.app.yearly", locale: "zh-Hans", key: "winback", reason: .withheldStale),
            .init(product: "com.example.app.yearly", locale: "de-DE", key: "winback", reason: .untranslated),
            .init(product: "com.example.app.yearly", locale: "de-DE", key: "offer", reason: .belowMinimumState),
        ]
        let bytes = manifest.json.canonicalBytes
        let decoded = try Manifest.decode(bytes, path: "manifest.json")
        #expect(decoded.notShipped == manifest.notShipped.sorted())
        #expect(decoded.notShipped.map(\.locale) == ["de-DE", "de-DE", "zh-Hans"])
        #expect(decoded.json.canonicalBytes == bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        let object = try JSONSerialization.jsonObject(with: Data(bytes)) as! [String: Any]
        #expect((object["notShipped"] as? [[String: String]])?.first
            == ["key": "offer", "locale": "de-DE", "product": "com.example.app.yearly", "reason": "below-minimum-state"])
        let section = try #require(text.range(of: "\"notShipped\"")).upperBound
        let cases: [(String, String, String)] = [
            (#""reason": "withheld-stale""#, #""reason": "stale""#, "\"reason\" must be one of untranslated, withheld-stale"),
            (#""locale": "zh-Hans""#, #""locale": "../zh""#, "\"locale\" must be one path segment"),
            (#""locale": "zh-Hans""#, #""locale": "de-DE""#, "\"notShipped\" must be sorted by product, locale and key, each once"),
            (#""reason": "untranslated""#, #""reason": "untranslated", "why": "x""#, "unknown member \"why\""),
        ]
        for (original, replacement, expected) in cases {
            let range = try #require(text.range(of: original, range: section..<text.endIndex), "\(original)")
            let edited = text.replacingCharacters(in: range, with: replacement)
            do {
                _ = try Manifest.decode(Array(edited.utf8), path: "m.json")
                Issue.record("accepted \(replacement)")
            } catch {
                #expect(error.description.contains(expected), "\(error)")
            }
        }
    }
}
