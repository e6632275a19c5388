@testable import Bundle
import Foundation
import Model
import Testing

/// `realtime.json`: the realtime facts in a file the digest covers, read strictly, and the
/// manifest's copies refused where they differ from it.
@Suite struct RealtimeFactsTests {
    /// The manifest of `ManifestTests` with a group, a weighted choice, a promotional offer and a
    /// switch-plan message, as a build of such sources writes it.
    static func manifest() throws -> Manifest {
        var manifest = try ManifestTests.manifest()
        var products = try #require(manifest.products)
        try #require(!products.isEmpty)
        let own = products[0].id
        products[0].group = "group"
        products.append(Manifest.Product(id: "com.example.app.other", group: "group", choice: nil, realtime: []))
        products.append(Manifest.Product(id: "com.example.app.third", group: "group", choice: nil, realtime: []))
        // With a state file of pending uploads, the messages are under `present`.
        var present = try #require(manifest.present)
        let messages = present.indices.filter { present[$0].operation == .uploadMessage }
        try #require(messages.count >= 2)
        for index in messages { present[index].product = own }
        present[messages[0]].messageType = .promotionalOffer
        present[messages[0]].offer = "offer.half_price"
        present[messages[1]].messageType = .switchPlan
        present[messages[1]].switchTo = "com.example.app.other"
        present[messages[1]].billingPlanType = "MONTHLY"
        manifest.present = present
        products[0].choice = .weighted
        products[0].realtime = [(message: present[messages[0]].key!, weight: 3), (message: present[messages[1]].key!, weight: 1)]
        manifest.products = products
        return manifest
    }

    static func text(_ value: JSONValue) -> String { String(decoding: value.canonicalBytes, as: UTF8.self) }

    @Test func whatTheBuilderWritesReadsBackTheSame() throws {
        let manifest = try Self.manifest()
        let facts = try #require(RealtimeFacts(manifest: manifest))
        let bytes = facts.json.canonicalBytes
        #expect(try RealtimeFacts.decode(bytes, path: "realtime.json") == facts)
        #expect(facts.messages.count == manifest.entries.filter { $0.operation == .uploadMessage }.count)
        #expect(facts.messages.map(\.identifier) == facts.messages.map(\.identifier).sorted())
        #expect(facts.products == manifest.products)
        let text = Self.text(facts.json)
        #expect(text.contains("\"offer\": \"offer.half_price\"") && text.contains("\"switchTo\": \"com.example.app.other\"")
            && text.contains("\"billingPlanType\": \"MONTHLY\"") && text.contains("\"weight\": 3"))
        // The same facts as the manifest: it reads with them.
        #expect(try Manifest.decode(manifest.json.canonicalBytes, path: "manifest.json", realtime: facts) == manifest)
        // A build writes it, and the digest is over it.
        let bundle = try BundleBuilder.build(BundleTests.input(.sandbox))
        let written = try #require(bundle.files[RealtimeFacts.file])
        #expect(written == RealtimeFacts(manifest: bundle.manifest)?.json.canonicalBytes)
        #expect(bundle.digest == BundleBuilder.digest(of: bundle.files))
        var without = bundle.files
        without[RealtimeFacts.file] = nil
        #expect(bundle.digest != BundleBuilder.digest(of: without))
    }

    /// Each realtime fact the manifest copies, edited in the manifest alone: refused at the
    /// member's line, naming the field and what realtime.json says.
    @Test func aManifestCopyThatDiffersIsRefusedWhereItIsWritten() throws {
        let manifest = try Self.manifest()
        let facts = try #require(RealtimeFacts(manifest: manifest))
        let text = Self.text(manifest.json)
        let edits: [(field: String, from: String, to: String)] = [
            ("offer", "\"offer\": \"offer.half_price\"", "\"offer\": \"offer.other\""),
            ("switchTo", "\"switchTo\": \"com.example.app.other\"", "\"switchTo\": \"com.example.app.third\""),
            ("billingPlanType", "\"billingPlanType\": \"MONTHLY\"", "\"billingPlanType\": \"BILLED_UPFRONT\""),
            ("messageType", "\"messageType\": \"promotional-offer\"", "\"messageType\": \"text\""),
            ("realtime", "\"weight\": 3", "\"weight\": 4"),
            ("group", "\"group\": \"group\"", "\"group\": \"another\""),
            ("choice", "\"choice\": \"weighted\"", "\"choice\": \"first-usable\""),
        ]
        for edit in edits {
            #expect(text.contains(edit.from), "\(edit.from)")
            let edited = text.replacingOccurrences(of: edit.from, with: edit.to)
            let line = zip(text.split(separator: "\n", omittingEmptySubsequences: false), edited.split(separator: "\n", omittingEmptySubsequences: false))
                .enumerated().first { $0.element.0 != $0.element.1 }!.offset + 1
            #expect {
                try Manifest.decode(Array(edited.utf8), path: "manifest.json", realtime: facts)
            } throws: { error in
                let message = "\(error)"
                return message.hasPrefix("manifest.json:\(line):") && message.contains("\"\(edit.field)\"")
                    && message.contains("realtime.json, which the digest covers")
            }
            // Without realtime.json the manifest alone reads (what an earlier msgc wrote): only
            // realtime.json tells the edit.
            #expect(throws: Never.self) { try Manifest.decode(Array(edited.utf8), path: "m", realtime: nil) }
        }
        // A switchTo outside the group fails the group check where it is read, with or without realtime.json.
        let outside = text.replacingOccurrences(of: "\"switchTo\": \"com.example.app.other\"", with: "\"switchTo\": \"\(manifest.products![0].id)\"")
        #expect { try Manifest.decode(Array(outside.utf8), path: "m", realtime: facts) } throws: { "\($0)".contains("is not another product of the group") }
        // An offer dropped from the manifest, a product dropped, products dropped altogether.
        var dropped = manifest
        let offered = dropped.present!.firstIndex { $0.offer != nil }!
        dropped.present![offered].offer = nil
        #expect { try Manifest.decode(dropped.json.canonicalBytes, path: "m", realtime: facts) } throws: { "\($0)".contains("\"offer\" of message") && "\($0)".contains("is absent") }
        dropped = manifest
        dropped.products!.removeLast()
        #expect { try Manifest.decode(dropped.json.canonicalBytes, path: "m", realtime: facts) } throws: { "\($0)".contains("\"products\" lists") }
        dropped.products = nil
        #expect { try Manifest.decode(dropped.json.canonicalBytes, path: "m", realtime: facts) } throws: { "\($0)".contains("missing \"products\"") }
        // A message realtime.json lists that the manifest does not, and the reverse.
        var fewer = facts
        fewer.messages.removeFirst()
        #expect { try Manifest.decode(manifest.json.canonicalBytes, path: "m", realtime: fewer) } throws: { "\($0)".contains("is not in realtime.json") }
        dropped = manifest
        dropped.operations.removeAll { $0.identifier == facts.messages.last!.identifier }
        dropped.present?.removeAll { $0.identifier == facts.messages.last!.identifier }
        #expect { try Manifest.decode(dropped.json.canonicalBytes, path: "m", realtime: facts) } throws: { "\($0)".contains("which no uploadMessage entry of the manifest has") }
        // No entry may name realtime.json as its request body.
        let stolen = text.replacingOccurrences(of: "\"file\": \"messages/\(facts.messages[0].identifier).json\"", with: "\"file\": \"realtime.json\"")
        #expect(stolen != text)
        #expect { try Manifest.decode(Array(stolen.utf8), path: "m") } throws: { "\($0)".contains("must not be realtime.json") }
    }

    /// Hostile realtime.json: wrong types, huge or fractional numbers, unknown members, unsorted
    /// or repeated messages, other spacing. Each is refused, and nothing else than what msgc
    /// writes is ever read back.
    @Test func hostileRealtimeJSONIsRefused() throws {
        let facts = try #require(RealtimeFacts(manifest: try Self.manifest()))
        let text = Self.text(facts.json)
        let identifier = facts.messages[0].identifier
        let edits: [(String, String, String)] = [
            ("\"weight\": 3", "\"weight\": 1000001", "a whole number from 1 to 1000000"),
            ("\"weight\": 3", "\"weight\": 99999999999999999999999999", "a whole number from 1 to 1000000"),
            ("\"weight\": 3", "\"weight\": 0", "a whole number from 1 to 1000000"),
            ("\"weight\": 3", "\"weight\": -3", "a whole number from 1 to 1000000"),
            ("\"weight\": 3", "\"weight\": 3.0", "a whole number from 1 to 1000000"),
            ("\"weight\": 3", "\"weight\": 3e0", "a whole number from 1 to 1000000"),
            ("\"weight\": 3", "\"weight\": \"3\"", "a whole number from 1 to 1000000"),
            ("\"weight\": 3", "\"weight\": null", "a whole number from 1 to 1000000"),
            ("\"formatVersion\": 1", "\"formatVersion\": 2", "\"formatVersion\" must be 1"),
            ("\"formatVersion\": 1", "\"formatVersion\": 100000000000000000000", "\"formatVersion\" must be 1"),
            ("\"format\": \"msgc-realtime-facts\"", "\"format\": \"other\"", "is not the realtime facts of an msgc bundle"),
            ("\"offer\": \"offer.half_price\"", "\"offer\": 7", "\"offer\" must be a string"),
            ("\"offer\": \"offer.half_price\"", "\"offer\": \"a b\"", "\"offer\" must hold only"),
            ("\"offer\": \"offer.half_price\"", "\"offer\": \"" + String(repeating: "a", count: 256) + "\"", "\"offer\" must hold only"),
            ("\"switchTo\": \"com.example.app.other\"", "\"switchTo\": \"../x\"", "\"switchTo\" must be one path segment"),
            ("\"billingPlanType\": \"MONTHLY\"", "\"billingPlanType\": \"WEEKLY\"", "must be MONTHLY or BILLED_UPFRONT"),
            ("\"messageType\": \"promotional-offer\"", "\"messageType\": \"banner\"", "\"messageType\" must be text"),
            ("\"messageType\": \"promotional-offer\"", "\"messageType\": [1]", "\"messageType\" must be a string"),
            ("\"identifier\": \"\(identifier)\"", "\"identifier\": \"\(identifier.uppercased())\"", "must be a lower-case UUID"),
            ("\"group\": \"group\"", "\"group\": {}", "\"group\" must be a string"),
            ("\"choice\": \"weighted\"", "\"choice\": \"random\"", "\"choice\" must be first-usable or weighted"),
            ("\"messages\": [", "\"messages\": 5, \"x\": [", "unknown member \"x\""),
            ("\"offer\": \"offer.half_price\"", "\"offer\": \"offer.half_price\", \"price\": 0", "unknown member \"price\""),
            ("\"weight\": 3", "\"weight\": 3, \"bonus\": 1", "unknown member \"bonus\""),
            ("\"products\": [", "\"products\": {\"a\": 1}, \"p\": [", "unknown member \"p\""),
            ("\"formatVersion\": 1,\n", "\"formatVersion\": 1,\n\"formatVersion\": 1,\n", "not valid JSON"),
            ("\n}\n", "\n}", "not written as msgc writes it"),
            ("\"messageType\": \"promotional-offer\"", "\"messageType\":  \"promotional-offer\"", "not written as msgc writes it"),
        ]
        for (from, to, expected) in edits {
            #expect(text.contains(from), "\(from)")
            let edited = text.replacingOccurrences(of: from, with: to)
            #expect {
                try RealtimeFacts.decode(Array(edited.utf8), path: "realtime.json")
            } throws: { error in
                "\(error)".contains(expected) && "\(error)".contains("realtime.json")
            }
        }
        // Two messages swapped, and one listed twice.
        var swapped = facts
        swapped.messages.swapAt(0, 1)
        #expect { try RealtimeFacts.decode(swapped.json.canonicalBytes, path: "realtime.json") } throws: { "\($0)".contains("sorted by identifier, each once") }
        var twice = facts
        twice.messages.insert(twice.messages[0], at: 1)
        #expect { try RealtimeFacts.decode(twice.json.canonicalBytes, path: "realtime.json") } throws: { "\($0)".contains("sorted by identifier, each once") }
        // Not JSON, not an object, empty.
        for bytes in [Array("{".utf8), Array("[]\n".utf8), [], [0xFF, 0xFE]] {
            #expect(throws: JSONReadError.self) { try RealtimeFacts.decode(bytes, path: "realtime.json") }
        }
        // Random bytes flipped in the file: never a crash, and anything read is what msgc writes.
        var generator = SplitMix(seed: 44)
        let original = Array(text.utf8)
        for _ in 0..<2_000 {
            var bytes = original
            for _ in 0..<Int(generator.next() % 3 + 1) {
                bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
            }
            if let read = try? RealtimeFacts.decode(bytes, path: "realtime.json") { #expect(read.json.canonicalBytes == bytes) }
        }
    }

    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
