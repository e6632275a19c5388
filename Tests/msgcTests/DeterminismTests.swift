import Foundation
import Testing
import TestSupport

/// The same content gives the same bundle, byte for byte, whatever the order the file system
/// lists a folder in, the working directory and the locale.
///
/// Two trees are built: the example `content/` and a generated tree with many small files in
/// nested folders and text that case mapping under Turkish rules would change (`İ`, `ı`). Each is
/// copied twice, once creating its files in sorted order and once in a shuffled order with the
/// folders made in reverse, so that directory listings differ; then built from each copy, from
/// another working directory, and under `LC_ALL` of `C`, `tr_TR.UTF-8` and `ja_JP.UTF-8`.
@Suite(.ownThreads, .serialized) struct DeterminismTests {
    static let example = MsgcRunner.packageRoot.appendingPathComponent("content")

    /// glibc locales made with localedef into a private folder (LOCPATH), so that the Turkish and
    /// Japanese runs get real locales even on a machine that has only C installed. Foundation
    /// reads LC_ALL itself either way; without localedef or its sources this stays nil and only
    /// Foundation sees the locale.
    static let localePath: URL? = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/localedef"),
              FileManager.default.fileExists(atPath: "/usr/share/i18n/locales/tr_TR"),
              FileManager.default.fileExists(atPath: "/usr/share/i18n/locales/ja_JP"),
              let folder = try? MsgcRunner.temporaryFolder() else { return nil }
        for name in ["tr_TR", "ja_JP"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/localedef")
            process.arguments = ["-i", name, "-f", "UTF-8", folder.appendingPathComponent("\(name).UTF-8").path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return nil }
            process.waitUntilExit()
            // localedef exits 1 for warnings in the locale sources; the locale is still written.
            guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("\(name).UTF-8/LC_CTYPE").path) else {
                return nil
            }
        }
        return folder
    }()

    /// Every file under `folder` with its bytes, by relative path.
    static func files(in folder: URL) throws -> [(path: String, bytes: Data)] {
        try MsgcRunner.files(in: folder).map { ($0.key, $0.value) }.sorted { $0.path < $1.path }
    }

    /// Where the copies go: /dev/shm when it is there. On tmpfs a folder lists its entries in
    /// the reverse of the order they were made; ext4 lists them in the order of a hash of their
    /// names, so that copies made in different orders would list alike.
    static func copiesFolder() throws -> URL {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isDirectory), isDirectory.boolValue,
           access("/dev/shm", W_OK) == 0 {
            let url = URL(fileURLWithPath: "/dev/shm/msgc-determinism-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url
        }
        return try MsgcRunner.temporaryFolder()
    }

    /// Copies `tree` to `destination`, making folders and files in the order `order` puts them.
    static func copy(_ tree: URL, to destination: URL, order: ([String]) -> [String]) throws {
        let entries = Dictionary(uniqueKeysWithValues: try files(in: tree).map { ($0.path, $0.bytes) })
        let folders = Set(entries.keys.map { ($0 as NSString).deletingLastPathComponent }).sorted()
        for folder in order(folders) {
            try FileManager.default.createDirectory(
                at: destination.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        for path in order(entries.keys.sorted()) { try entries[path]!.write(to: destination.appendingPathComponent(path)) }
    }

    /// Each folder of `tree` with its entries in the order the file system lists them.
    static func listings(_ tree: URL) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        var pending = [""]
        while let relative = pending.popLast() {
            let url = relative.isEmpty ? tree : tree.appendingPathComponent(relative)
            let entries = try FileManager.default.contentsOfDirectory(atPath: url.path)
            result[relative] = entries
            for entry in entries {
                let child = relative.isEmpty ? entry : relative + "/" + entry
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: tree.appendingPathComponent(child).path, isDirectory: &isDirectory),
                   isDirectory.boolValue {
                    pending.append(child)
                }
            }
        }
        return result
    }

    /// Builds `content` into `out` with `environment` added to msgc's; `directory` is the working directory.
    static func build(_ content: URL, into out: URL, in directory: URL, environment: [String: String] = [:]) throws {
        let result = try MsgcRunner.run(
            ["build", "--content", content.path, "--environment", "production", "--out", out.path, "--quiet"],
            in: directory, environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// Returns the reference bundle's files.
    @discardableResult
    static func expectSameBundleEverywhere(_ tree: URL) throws -> [(path: String, bytes: Data)] {
        let scratch = try MsgcRunner.temporaryFolder()
        let copies = try copiesFolder()
        defer {
            try? FileManager.default.removeItem(at: scratch)
            try? FileManager.default.removeItem(at: copies)
        }
        let sorted = copies.appendingPathComponent("sorted/content")
        let shuffled = copies.appendingPathComponent("shuffled/content")
        try copy(tree, to: sorted) { $0 }
        var generator = SplitMix64(seed: 0x7368_7566)
        try copy(tree, to: shuffled) { entries in
            var result = entries
            for index in result.indices.reversed() where index > 0 {
                result.swapAt(index, Int(generator.next() % UInt64(index + 1)))
            }
            return result
        }
        if copies.path.hasPrefix("/dev/shm/") {
            #expect(try listings(sorted) != listings(shuffled), "the two copies list their folders alike")
        }

        let reference = scratch.appendingPathComponent("bundles/reference")
        try build(sorted, into: reference, in: MsgcRunner.packageRoot, environment: ["LC_ALL": "C"])
        let expected = try files(in: reference)
        #expect(expected.count > 10)

        var locales = ["LC_ALL": "tr_TR.UTF-8", "LANG": "tr_TR.UTF-8"]
        var japanese = ["LC_ALL": "ja_JP.UTF-8", "LANG": "ja_JP.UTF-8", "TZ": "Asia/Tokyo"]
        if let path = localePath {
            locales["LOCPATH"] = path.path
            japanese["LOCPATH"] = path.path
        }
        let elsewhere = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        let runs: [(name: String, content: URL, directory: URL, environment: [String: String])] = [
            ("shuffled", shuffled, MsgcRunner.packageRoot, ["LC_ALL": "C"]),
            ("elsewhere", sorted, elsewhere, ["LC_ALL": "C"]),
            ("turkish", shuffled, MsgcRunner.packageRoot, locales),
            ("japanese", sorted, elsewhere, japanese),
        ]
        for run in runs {
            let out = scratch.appendingPathComponent("bundles/\(run.name)")
            try build(run.content, into: out, in: run.directory, environment: run.environment)
            let bundle = try files(in: out)
            #expect(bundle.map(\.path) == expected.map(\.path), "\(run.name): other files")
            #expect(bundle.map(\.bytes) == expected.map(\.bytes), "\(run.name): other bytes")
        }
        // Building again over the previous bundle gives the same bytes too.
        try build(shuffled, into: reference, in: elsewhere, environment: locales)
        #expect(try files(in: reference).map(\.bytes) == expected.map(\.bytes))
        return expected
    }

    @Test func theExampleBuildsToTheSameBytesEverywhere() throws {
        try Self.expectSameBundleEverywhere(Self.example)
    }

    /// A library's own environment variables do not reach msgc's output: Yams reads
    /// `YAMS_DEFAULT_ENCODING`, and once printed a line to standard output (into a JSON report)
    /// and parsed the YAML as UTF-16 when it was set.
    @Test func aLibrarysEnvironmentVariableChangesNothing() throws {
        let arguments = ["lint", "--content", "content", "--format", "json"]
        let plain = try MsgcRunner.run(arguments)
        let set = try MsgcRunner.run(arguments, environment: ["YAMS_DEFAULT_ENCODING": "utf16"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(set.status == plain.status)
        #expect(set.stdout == plain.stdout)
        #expect(set.stderr == plain.stderr)
    }

    @Test func aGeneratedTreeBuildsToTheSameBytesEverywhere() throws {
        let tree = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: tree) }
        try MsgcRunner.write(GeneratedTree.files(), into: tree)
        let bundle = try Self.expectSameBundleEverywhere(tree)
        // Every message ships in all three locales: the translations were read and accepted.
        #expect(bundle.filter { $0.path.hasPrefix("messages/") }.count == 60 * 3)
    }
}

/// A content tree of three products, 60 messages in 60 files spread over nested folders, with
/// German and Japanese translations whose text includes letters that Turkish case mapping
/// treats differently (`I` `ı` `İ` `i`).
enum GeneratedTree {
    static let products = ["com.example.gen.alpha", "com.example.gen.beta", "com.example.gen.gamma"]
    static let words = ["Istanbul", "ılık", "İzmir", "Iğdır", "Straße", "東京", "İİ ıı", "Ölçü"]

    static func key(_ index: Int) -> String {
        "msg-" + String(UnicodeScalar(UInt8(ascii: "a") + UInt8(index % 26))) + String(UnicodeScalar(UInt8(ascii: "a") + UInt8(index / 26)))
    }

    static func text(_ product: Int, _ index: Int, _ field: String) -> String {
        "\(field.capitalized) \(words[(product + index) % words.count]) \(key(index))"
    }

    static func files() -> [String: String] {
        var files: [String: String] = [
            "msgc.yaml": """
                bundleId: com.example.gen
                sourceLocale: en-US
                locales: [en-US, de-DE, ja]
                namespace: 6f1c3d52-8a4e-4b7a-9c1d-2e5f7a9b0c3d
                products:
                \(products.map { "  - id: \($0)" }.joined(separator: "\n"))

                """,
        ]
        var units: [(id: String, source: String)] = []
        for (productIndex, product) in products.enumerated() {
            for index in 0..<20 {
                let path = "messages/group-\(index % 4)/part-\(index % 3)/\(productIndex)-\(key(index)).yaml"
                let header = text(productIndex, index, "header")
                let body = text(productIndex, index, "body")
                files[path] = """
                    messages:
                      - key: \(key(index))
                        product: \(product)
                        type: text
                        default: \(index == 0)
                        header: "\(header)"
                        body: "\(body)"

                    """
                units.append(("\(product)/\(key(index))/header", header))
                units.append(("\(product)/\(key(index))/body", body))
            }
        }
        for (locale, prefix) in [("de-DE", "DE"), ("ja", "日本")] {
            let body = units.map { unit in
                """
                      <trans-unit id="\(unit.id)">
                        <source>\(unit.source)</source>
                        <target state="translated">\(prefix) \(unit.source)</target>
                      </trans-unit>
                """
            }.joined(separator: "\n")
            files["translations/\(locale).xliff"] = """
                <?xml version="1.0" encoding="UTF-8"?>
                <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
                  <file original="msgc" source-language="en-US" target-language="\(locale)" datatype="plaintext">
                    <body>
                \(body)
                    </body>
                  </file>
                </xliff>

                """
        }
        return files
    }
}
