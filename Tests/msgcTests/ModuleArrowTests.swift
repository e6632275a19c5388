import Foundation
import TestSupport
import Testing

/// The module map of docs/architecture.md, held against Package.swift and the sources: the
/// arrows the house forbids stay out, and every module a source file imports is one its target
/// declares. MemberImportVisibility makes each file import what it uses, but a module that
/// another target builds can still be imported without being declared; this test catches that.
@Suite struct ModuleArrowTests {
    static let root = MsgcRunner.packageRoot

    /// Each target of Package.swift and the names in its `dependencies:` list.
    static func declaredDependencies() throws -> [String: Set<String>] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let target = try Regex(#"\.(?:target|executableTarget|testTarget)\(\s*name: "(\w+)"(?:,\s*dependencies: \[([^\]]*)\])?"#)
        let quoted = try Regex(#""([A-Za-z0-9]+)""#)
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
        #expect(Set(importersOfLint) == ["Compiler", "msgc"])
        // The server stack (SwiftNIO, Hummingbird, metrics) stays in the server's module: no
        // other command links more of it than msgc's binary must.
        let serverStack: Set<String> = ["hummingbird", "swift-nio", "swift-metrics", "swift-prometheus", "swift-service-lifecycle", "swift-nio-ssl"]
        let importersOfServerStack = dependencies.filter { _, list in !list.isDisjoint(with: serverStack) }.keys
        #expect(Set(importersOfServerStack) == ["RealtimeServer"])
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
                        if !system.contains(imported) && !declared.contains(imported) {
                            undeclared.append("\(folder)/\(module)/\(file) imports \(imported)")
                        }
                    }
                }
            }
        }
        #expect(undeclared.isEmpty, "\(undeclared)")
    }
}
