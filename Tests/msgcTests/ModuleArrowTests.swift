import Foundation
import TestSupport
import Testing

/// The module map of docs/architecture.md, held against Package.swift and the sources: the
/// arrows the house forbids stay out, and every module a source file imports is one its target
/// declares. MemberImportVisibility makes each file import what it uses, but a module that
/// another target builds can still be imported without being declared; this test catches that.
@Suite(.ownThreads) struct ModuleArrowTests {
    static let root = MsgcRunner.packageRoot

    /// Each target of Package.swift and the names in its `dependencies:` list.
    static func declaredDependencies() throws -> [String: Set<String>] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let target = try Regex(#"\.(?:target|executableTarget|testTarget)\(\s*name: "([\w-]+)"(?:,\s*dependencies: \[([^\]]*)\])?"#)
        let quoted = try Regex(#""([A-Za-z0-9-]+)""#)
        var dependencies: [String: Set<String>] = [:]
        for match in manifest.matches(of: target) {
            let name = String(match.output[1].substring ?? "")
            let list = match.output[2].substring.map(String.init) ?? ""
            dependencies[name] = Set(list.matches(of: quoted).compactMap { $0.output[1].substring.map(String.init) })
        }
        return dependencies
    }

    @Test func noArrowTheHouseForbids() throws {
        let dependencies = try Self.declaredDependencies()
        let forbidden: [(from: String, to: String)] = [
            ("Lint", "Parser"), ("Bundle", "Parser"), ("Apply", "Parser"), ("Apply", "Compiler"),
            ("Realtime", "Parser"), ("Realtime", "Compiler"), ("RealtimeServer", "Parser"), ("RealtimeServer", "Compiler"),
            ("Coverage", "Lint"), ("Preview", "Lint"), ("PseudoLocalization", "Lint"), ("LanguageServer", "Lint"),
            ("Model", "Diagnostics"),
        ]
        #expect(dependencies["Lint"] != nil && dependencies["Model"] != nil)
        for (from, to) in forbidden {
            #expect(dependencies[from]?.contains(to) != true, "\(from) must not depend on \(to)")
        }
        let importersOfLint = dependencies.filter { name, list in list.contains("Lint") && !name.hasSuffix("Tests") }.keys
        #expect(Set(importersOfLint) == ["Compiler"])
        // The server stack (SwiftNIO, Hummingbird, metrics) stays in the server's module, which
        // only the server's executable links.
        let serverStack: Set<String> = ["hummingbird", "swift-nio", "swift-metrics", "swift-prometheus", "swift-service-lifecycle", "CTLS"]
        let importersOfServerStack = dependencies.filter { _, list in !list.isDisjoint(with: serverStack) }.keys
        #expect(Set(importersOfServerStack) == ["RealtimeServer"])
        let importersOfServer = dependencies.filter { name, list in list.contains("RealtimeServer") && !name.hasSuffix("Tests") }.keys
        #expect(Set(importersOfServer) == ["msgc-realtime"])
        for parser in ["Parser", "XLIFF", "Compiler", "Apply", "Lint"] {
            #expect(dependencies["msgc-realtime"]?.contains(parser) == false, "the server must not depend on \(parser)")
        }
        // The experiment report is plain values over Model (and Diagnostics' escaping), for the
        // server's side alone: msgc never links it.
        #expect(dependencies["Experiments"] == ["Model", "Diagnostics"])
        #expect(dependencies["msgc"]?.contains("Experiments") == false, "msgc must not depend on Experiments")
        // The database drivers stay in the experiment store, and neither reaches msgc, however
        // many modules lie between.
        let databases: Set<String> = ["CSQLite", "CPostgreSQL"]
        let importersOfDatabases = dependencies.filter { name, list in !list.isDisjoint(with: databases) && !name.hasSuffix("Tests") }.keys
        #expect(Set(importersOfDatabases) == ["ExperimentStore"])
        var reached: Set<String> = []
        var next = ["msgc"]
        while let module = next.popLast() {
            for dependency in dependencies[module] ?? [] where reached.insert(dependency).inserted { next.append(dependency) }
        }
        let storeInMsgc = reached.intersection(databases.union(["ExperimentStore"]))
        #expect(storeInMsgc.isEmpty, "msgc depends on \(storeInMsgc.sorted())")
    }

    /// The symbols each built executable holds, with the libraries it links (`nm`, `ldd`).
    static func linked(_ executable: URL) throws -> (symbols: [Substring], libraries: String) {
        let symbols = try MsgcRunner.run(["--defined-only", "--format=just-symbols", executable.path], program: URL(fileURLWithPath: "/usr/bin/nm"))
        let libraries = try MsgcRunner.run([executable.path], program: URL(fileURLWithPath: "/usr/bin/ldd"))
        guard symbols.status == 0, libraries.status == 0 else {
            throw ServeProcess.Failure(description: "cannot read \(executable.path): \(symbols.stderr)\(libraries.stderr)")
        }
        return (symbols.stdout.split(separator: "\n"), libraries.stdout)
    }

    /// What Package.swift declares holds in the executables as built: msgc carries none of the
    /// server stack (SwiftNIO, HummingbirdCore, libssl) nor the experiment store and its database
    /// libraries (libsqlite3, libpq), and the internet-facing
    /// server none of the compiler's readers (YAML, XLIFF and libxml2, PNG) nor libcurl's loader.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/nm") && FileManager.default.isExecutableFile(atPath: "/usr/bin/ldd")))
    func msgcLinksNoServerAndTheServerNoParser() throws {
        // Swift symbols start with their module's name, counted: `$s7NIOCore…`.
        func modules(_ names: [String]) -> [String] { names.map { "$s\($0.utf8.count)\($0)" } }
        let msgc = try Self.linked(MsgcRunner.executable)
        let serverStack = modules(["NIOCore", "NIOPosix", "NIOSSL", "HummingbirdCore", "RealtimeServer", "ServiceLifecycle", "Prometheus", "Experiments"])
            + ["msgc_tls_"]
        #expect(msgc.symbols.count > 1000)
        #expect(msgc.symbols.contains { $0.hasPrefix("$s6Parser") })
        let inMsgc = (serverStack + modules(["ExperimentStore"])).filter { prefix in msgc.symbols.contains { $0.hasPrefix(prefix) } }
        #expect(inMsgc.isEmpty, "msgc links \(inMsgc)")
        for library in ["libsqlite3", "libpq"] {
            #expect(!msgc.libraries.contains(library), "msgc links \(library)")
        }

        #expect(!msgc.libraries.contains("libssl"), "msgc links libssl")

        let server = try Self.linked(MsgcRunner.serverExecutable)
        #expect(server.libraries.contains("libssl"), "the server serves HTTPS with the system's libssl")
        #expect(server.symbols.contains { $0.hasPrefix("$s14RealtimeServer") })
        // `msgc realtime report` and `outcomes import` are the server's: the store and the report.
        #expect(server.symbols.contains { $0.hasPrefix("$s15ExperimentStore") } && server.symbols.contains { $0.hasPrefix("$s11Experiments") })
        #expect(server.libraries.contains("libsqlite3") && server.libraries.contains("libpq"), "the server's store drivers")
        let readers = modules(["Parser", "XLIFF", "Compiler", "Apply", "Lint", "Yams"]) + ["yaml_parser_", "msgc_http_", "xmlReadMemory"]
        let inServer = readers.filter { prefix in server.symbols.contains { $0.hasPrefix(prefix) } }
        #expect(inServer.isEmpty, "the server links \(inServer)")
        for library in ["libxml2", "libyaml", "libcurl"] {
            #expect(!server.libraries.contains(library), "the server links \(library)")
        }
    }

    @Test func everyImportIsDeclared() throws {
        let dependencies = try Self.declaredDependencies()
        // The toolchain's modules, and libyaml, which comes with Yams (Package.swift says why).
        let system: Set<String> = ["Foundation", "FoundationEssentials", "Glibc", "Darwin", "Dispatch", "Testing", "XCTest", "CYaml", "Synchronization"]
        let importLine = try Regex(#"^(?:@testable |internal |public |@_implementationOnly )?import (\w+)\s*$"#).anchorsMatchLineEndings()
        var undeclared: [String] = []
        for folder in ["Sources", "Tests"] {
            let base = Self.root.appendingPathComponent(folder)
            for module in try FileManager.default.contentsOfDirectory(atPath: base.path).sorted() {
                guard let declared = dependencies[module] else { continue }
                let files = FileManager.default.enumerator(atPath: base.appendingPathComponent(module).path)?
                    .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
                for file in files.sorted() {
                    let text = try String(contentsOf: base.appendingPathComponent(module).appendingPathComponent(file), encoding: .utf8)
                    for match in text.matches(of: importLine) {
                        let imported = String(match.output[1].substring ?? "")
                        // An executable's module name has `_` for the `-` of its target's.
                        let declaredModules = Set(declared.map { $0.replacingOccurrences(of: "-", with: "_") })
                        if !system.contains(imported) && !declaredModules.contains(imported) {
                            undeclared.append("\(folder)/\(module)/\(file) imports \(imported)")
                        }
                    }
                }
            }
        }
        #expect(undeclared.isEmpty, "\(undeclared)")
    }
}
