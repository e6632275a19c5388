import Foundation
import Testing
import TestSupport

/// `msgc diff` on real bundles: the example built, changed, and built again.
@Suite(.ownThreads, .serialized) struct DiffTests {
    /// A copy of the example content to change.
    static func exampleCopy(in scratch: URL) throws -> URL {
        let content = scratch.appendingPathComponent("content")
        try FileManager.default.copyItem(at: MsgcRunner.packageRoot.appendingPathComponent("content"), to: content)
        return content
    }

    static func build(_ content: URL, to out: URL, environment: String = "production", release: String) throws {
        let result = try MsgcRunner.run(["build", "--content", content.path, "--environment", environment, "--out", out.path, "--release", release, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    static func edit(_ file: URL, _ change: (String) -> String) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        let changed = change(text)
        #expect(changed != text, "no change made to \(file.lastPathComponent)")
        try Data(changed.utf8).write(to: file)
    }

    /// The PNG with a `tEXt` chunk added after IHDR: other bytes, the same picture.
    static func withTextChunk(_ png: [UInt8]) -> [UInt8] {
        let type = Array("tEXt".utf8)
        let data = Array("Comment\0retouched".utf8)
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in type + data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
        }
        crc ^= 0xFFFF_FFFF
        func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        let chunk = bigEndian(UInt32(data.count)) + type + data + bigEndian(crc)
        let afterHeader = 8 + 25  // signature, then IHDR: length, type, 13 bytes, CRC
        return Array(png[..<afterHeader]) + chunk + Array(png[afterHeader...])
    }

    /// Builds the example, then changes it the ways a release does and builds again.
    static func changedBundles() throws -> (scratch: URL, old: URL, new: URL) {
        let scratch = try MsgcRunner.temporaryFolder()
        let content = try exampleCopy(in: scratch)
        let old = scratch.appendingPathComponent("old")
        try build(content, to: old, release: "1.0")

        // A German translation revised: only de-DE changes.
        try edit(content.appendingPathComponent("translations/de-DE.xliff")) {
            $0.replacingOccurrences(of: "Dein nächstes Jahr 50\u{A0}% günstiger", with: "Dein nächstes Jahr zum halben Preis: 50\u{A0}% weniger")
        }
        // The monthly plan's default moves from `thanks` to `new-courses`, `switch-yearly` is dropped,
        // and a new message (not translated yet) is added.
        try edit(content.appendingPathComponent("messages/plus/monthly.yaml")) { text in
            var text = text.replacingOccurrences(of: "    type: text\n    default: true\n    header: Thanks", with: "    type: text\n    header: Thanks")
            text = text.replacingOccurrences(
                of: "  - key: new-courses\n    product: com.example.parla.plus.monthly\n    type: text\n",
                with: "  - key: new-courses\n    product: com.example.parla.plus.monthly\n    type: text\n    default: true\n")
            text = String(text[..<text.range(of: "  - key: switch-yearly")!.lowerBound])
            return text + """
                  - key: spring-sale
                    product: com.example.parla.plus.monthly
                    type: text
                    header: Spring into a new language
                    body: Stay with Plus this spring and keep every lesson and download you have made so far.

                """
        }
        // A bullet icon re-exported: new bytes, so a new image, and every message using it changes.
        let icon = content.appendingPathComponent("images/icons/check.png")
        try Data(withTextChunk([UInt8](Data(contentsOf: icon)))).write(to: icon)

        let new = scratch.appendingPathComponent("new")
        try build(content, to: new, release: "1.1")
        return (scratch, old, new)
    }

    @Test func classifiesWhatARebuildChanges() throws {
        let (scratch, old, new) = try Self.changedBundles()
        defer { try? FileManager.default.removeItem(at: scratch) }

        let result = try MsgcRunner.run(["diff", old.path, new.path, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["schemaVersion"] as? Int == 1)
        let messages = try #require(json["messages"] as? [[String: Any]])
        func changes(_ list: [[String: Any]], _ change: String) -> [String] {
            list.filter { $0["change"] as? String == change }.map { item in
                ["product", "locale", "key", "source"].compactMap { item[$0] as? String }.joined(separator: " ")
            }
        }
        let monthly = "com.example.parla.plus.monthly"
        let yearly = "com.example.parla.plus.yearly"
        let monthlyLocales = ["ar-SA", "de-DE", "en-US", "es-MX", "fr-FR", "ja", "pt-BR", "zh-Hans"]
        #expect(changes(messages, "new") == ["\(monthly) en-US spring-sale"])
        #expect(changes(messages, "gone") == monthlyLocales.map { "\(monthly) \($0) switch-yearly" })
        // The icon is a bullet of the family plan's message too.
        let family = ["de-DE", "en-US", "es-MX", "fr-FR"].map { "com.example.parla.family.yearly \($0) stay-together" }
        let plus = monthlyLocales.map { "\(yearly) \($0) benefits" }.flatMap { line -> [String] in
            line == "\(yearly) de-DE benefits" ? [line, "\(yearly) de-DE offer-half-price"] : [line]
        }
        #expect(changes(messages, "changed") == family + plus)
        let german = try #require(messages.first { $0["key"] as? String == "offer-half-price" })
        #expect(german["changedFields"] as? [String] == ["header"])
        #expect(german["needsReview"] as? Bool == true)
        let benefits = try #require(messages.first { $0["key"] as? String == "benefits" && $0["locale"] as? String == "en-US" })
        #expect(benefits["changedFields"] as? [String] == ["bullet 1 image"])

        let images = try #require(json["images"] as? [[String: Any]])
        #expect(changes(images, "changed") == ["images/icons/check.png"])
        #expect(images.count == 1)

        let defaults = try #require(json["defaults"] as? [[String: Any]])
        // The family plan's default points at the same key with new content (its icon); the monthly
        // plan's at another key.
        #expect(changes(defaults, "re-pointed") == ["de-DE", "en-US", "es-MX", "fr-FR"].map { "com.example.parla.family.yearly \($0)" }
            + monthlyLocales.map { "\(monthly) \($0)" })
        #expect(defaults.filter { $0["product"] as? String == monthly }
            .allSatisfy { $0["oldKey"] as? String == "thanks" && $0["newKey"] as? String == "new-courses" })
        #expect(defaults.filter { $0["product"] as? String != monthly }
            .allSatisfy { $0["oldKey"] as? String == "stay-together" && $0["newKey"] as? String == "stay-together" })

        let summary = try #require(json["summary"] as? [String: [String: Int]])
        #expect(summary["messages"] == ["new": 1, "gone": 8, "changed": 13, "unchanged": 51])
        #expect(summary["images"] == ["new": 0, "gone": 0, "changed": 1, "unchanged": 5])
        #expect(summary["defaults"] == ["new": 0, "gone": 0, "re-pointed": 12, "unchanged": 8])
        // Apple reviews the new message, the 13 changed ones and the new icon; re-pointing needs no review.
        #expect((json["review"] as? [String])?.count == 15)

        // The text says the same per product and locale, and ends with what Apple must review.
        let text = try MsgcRunner.run(["diff", old.path, new.path])
        #expect(text.status == 0)
        #expect(text.stdout.contains("\n\(monthly)  de-DE\n  gone        message switch-yearly — no longer uploaded; Apple keeps it until it is deleted\n  re-pointed  default thanks → new-courses\n"))
        #expect(text.stdout.contains("  changed     message offer-half-price (header) — new upload, Apple reviews it again\n"))
        #expect(text.stdout.contains("  re-pointed  default → stay-together (its new content)\n"))
        #expect(text.stdout.contains("\nimages\n  changed     images/icons/check.png BULLET_POINT — new upload, Apple reviews it again\n"))
        #expect(text.stdout.hasSuffix("default configurations: 0 new, 0 gone, 12 re-pointed, 8 unchanged\nApple must review 14 messages and 1 image before they can be shown\n"))

        // Deterministic, and --exit-code reports the difference.
        #expect(try MsgcRunner.run(["diff", old.path, new.path]).stdout == text.stdout)
        #expect(try MsgcRunner.run(["diff", old.path, new.path, "--exit-code"]).status == 1)
    }

    @Test func identicalBundlesHaveNothingToReview() throws {
        let scratch = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let content = MsgcRunner.packageRoot.appendingPathComponent("content")
        try Self.build(content, to: scratch.appendingPathComponent("a"), release: "1.0")
        try Self.build(content, to: scratch.appendingPathComponent("b"), release: "1.0")
        let result = try MsgcRunner.run(["diff", scratch.appendingPathComponent("a").path, scratch.appendingPathComponent("b").path, "--exit-code"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("default configurations: 0 new, 0 gone, 0 re-pointed, 20 unchanged\nthe bundles hold the same uploads and default configurations\n"))
    }

    @Test func refusesWhatIsNotABundleOfTheSameAppAndEnvironment() throws {
        let scratch = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let content = MsgcRunner.packageRoot.appendingPathComponent("content")
        let good = scratch.appendingPathComponent("good")
        try Self.build(content, to: good, release: "1.0")
        let sandbox = scratch.appendingPathComponent("sandbox")
        try Self.build(content, to: sandbox, environment: "sandbox", release: "1.0")

        func diff(_ other: URL) throws -> MsgcRunner.Result { try MsgcRunner.run(["diff", good.path, other.path]) }
        func copy(_ name: String, _ damage: (URL) throws -> Void) throws -> URL {
            let folder = scratch.appendingPathComponent(name)
            try FileManager.default.copyItem(at: good, to: folder)
            try damage(folder)
            return folder
        }

        let empty = scratch.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let truncated = try copy("truncated") { folder in
            let manifest = folder.appendingPathComponent("manifest.json")
            let bytes = try Data(contentsOf: manifest)
            try bytes.prefix(200).write(to: manifest)
        }
        let edited = try copy("edited") { folder in
            let message = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("messages").path).sorted()[0]
            try Self.edit(folder.appendingPathComponent("messages/\(message)")) { $0.replacingOccurrences(of: "\"header\": \"", with: "\"header\": \"Hi! ") }
        }
        let newerFormat = try copy("newer") { folder in
            try Self.edit(folder.appendingPathComponent("manifest.json")) { $0.replacingOccurrences(of: "\"formatVersion\": 1", with: "\"formatVersion\": 2") }
        }

        let cases: [(URL, String)] = [
            (scratch.appendingPathComponent("missing"), "msgc: '\(scratch.appendingPathComponent("missing").path)' does not exist\n"),
            (empty, "msgc: '\(empty.path)' is not an msgc bundle: it has no manifest.json\n"),
            (truncated, "msgc: \(truncated.path)/manifest.json:"),
            (edited, "msgc: '\(edited.path)' is damaged: '"),
            (newerFormat, "msgc: \(newerFormat.path)/manifest.json:6:20: format version 2 is not one this msgc reads (it reads version 1); use the msgc that wrote it\n"),
            (sandbox, "msgc: the bundles are for different environments (production and sandbox); identifiers include the environment, so compare bundles of one environment\n"),
        ]
        for (folder, message) in cases {
            let result = try diff(folder)
            #expect(result.status == 2, "\(folder.lastPathComponent): \(result.stderr)")
            #expect(result.stderr.hasPrefix(message), "\(folder.lastPathComponent): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        #expect(try diff(truncated).stderr.contains("not valid JSON"))
    }

    /// A bundle's files are hashed a piece at a time: a stray file of 1 GB in a bundle costs
    /// diff a megabyte, not its size (it used to read each file whole).
    @Test func aHugeStrayFileIsHashedInBoundedMemory() throws {
        let scratch = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let content = try Self.exampleCopy(in: scratch)
        let bundle = scratch.appendingPathComponent("bundle")
        try Self.build(content, to: bundle, release: "1")
        // Sparse: it takes no disk, but reading it gives 1 GB of zeros.
        let stray = bundle.appendingPathComponent("images/stray.png")
        #expect(FileManager.default.createFile(atPath: stray.path, contents: nil))
        let handle = try FileHandle(forWritingTo: stray)
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        let result = try MeasuredProcess.run(MsgcRunner.executable, ["diff", bundle.path, bundle.path], in: scratch)
        #expect(result.status == 2)
        #expect(result.stderr.contains("is damaged: 'images/stray.png' is not in its manifest"), "\(result.stderr)")
        // Read whole, the file took more than 1 GiB. The bound leaves room for the test process's
        // own memory, which Linux counts in a spawned child's peak until it runs msgc.
        #expect(result.peakRSSBytes < 512 << 20, "peak \(result.peakRSSBytes >> 20) MiB")
    }

    /// A stray file of 3 GB, and a listed file grown to 3 GB (both sparse): the bundle is
    /// damaged, which diff says from the file list and the sizes, before hashing anything.
    @Test func aStrayOrOversizedFileFailsTheBundleBeforeAnyHashing() throws {
        let scratch = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let content = try Self.exampleCopy(in: scratch)
        let bundle = scratch.appendingPathComponent("bundle")
        try Self.build(content, to: bundle, release: "1")
        func grow(_ file: URL) throws {
            if !FileManager.default.fileExists(atPath: file.path) { #expect(FileManager.default.createFile(atPath: file.path, contents: nil)) }
            let handle = try FileHandle(forWritingTo: file)
            try handle.truncate(atOffset: 3 << 30)
            try handle.close()
        }
        let stray = bundle.appendingPathComponent("images/stray #1.png")
        try grow(stray)
        let strayResult = try MeasuredProcess.run(MsgcRunner.executable, ["diff", bundle.path, bundle.path], in: scratch, hangGuardSeconds: 120)
        #expect(strayResult.status == 2)
        #expect(strayResult.stderr.contains("is damaged: 'images/stray #1.png' is not in its manifest"), "\(strayResult.stderr)")
        try FileManager.default.removeItem(at: stray)

        let images = try FileManager.default.contentsOfDirectory(atPath: bundle.appendingPathComponent("images").path).sorted()
        let image = try #require(images.first)
        try grow(bundle.appendingPathComponent("images/\(image)"))
        let grown = try MeasuredProcess.run(MsgcRunner.executable, ["diff", bundle.path, bundle.path], in: scratch, hangGuardSeconds: 120)
        #expect(grown.status == 2)
        #expect(grown.stderr.contains("is damaged: 'images/\(image)' has 3221225472 bytes, more than msgc writes there"), "\(grown.stderr)")
    }
}
