import Compiler
import Diagnostics
import Foundation
import Model
import Parser
import Testing
import Yams

/// The JSON Schemas agree with the parser: the checked-in files are what `msgc schema` prints,
/// they name exactly the keys the parser reads, and on the example tree and every example of
/// the shape checks they give msgc's verdict.
@Suite struct SchemaTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test(arguments: Schemas.Kind.allCases)
    func checkedInSchemaIsWhatTheCommandPrints(_ kind: Schemas.Kind) throws {
        let url = Self.repository.appendingPathComponent("schemas/\(kind.fileName)")
        let checkedIn = try Data(contentsOf: url)
        #expect(Array(checkedIn) == Schemas.schema(kind).canonicalBytes, "schemas/\(kind.fileName) is stale: run `msgc schema \(kind.rawValue) > schemas/\(kind.fileName)`")
    }

    @Test func schemasNameExactlyTheParsersKeys() throws {
        func keys(_ schema: JSONValue?) -> [String] {
            guard case .object(let properties)? = schema?.members?["properties"] else { return [] }
            return properties.keys.sorted()
        }
        let config = Schemas.schema(.config)
        #expect(keys(config) == ConfigParser.knownKeys.sorted())
        #expect(keys(config.members?["properties"]?.members?["products"]?.members?["items"]) == ConfigParser.productKeys.sorted())
        let message = Schemas.schema(.messages).members?["properties"]?.members?["messages"]?.members?["items"]
        #expect(keys(message) == MessageSourceParser.messageKeys.sorted())
        #expect(keys(message?.members?["properties"]?.members?["image"]) == MessageSourceParser.imageKeys.sorted())
        #expect(keys(message?.members?["properties"]?.members?["bullets"]?.members?["items"]) == MessageSourceParser.bulletKeys.sorted())
    }

    /// The example content tree: clean for msgc, valid for the schemas.
    @Test func exampleContentIsValid() throws {
        let root = Self.repository.appendingPathComponent("content")
        var files = ["msgc.yaml"]
        let enumerator = FileManager.default.enumerator(atPath: root.appendingPathComponent("messages").path)
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".yaml") { files.append("messages/" + path) }
        }
        #expect(files.count > 1)
        for file in files {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            let errors = try SchemaValidator.errors(yaml: text, schema: Self.schema(for: file))
            #expect(errors.isEmpty, "\(file): \(errors)")
        }
    }

    /// `msgc init` names the schema in the first line of every YAML file it writes, and writes
    /// that schema beside it; its files are valid for it.
    @Test func initNamesTheSchemaInEveryYAMLFile() throws {
        let files = Dictionary(uniqueKeysWithValues: Scaffold.files(bundleId: "com.example.app", namespace: "1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b").map { ($0.path, $0.text) })
        let yamlFiles = files.keys.filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(yamlFiles == ["messages/welcome.yaml", "msgc.yaml"])
        for path in yamlFiles {
            let text = try #require(files[path])
            let firstLine = String(text.prefix { $0 != "\n" })
            let prefix = "# yaml-language-server: $schema="
            #expect(firstLine.hasPrefix(prefix), "\(path): \(firstLine)")
            let target = URL(fileURLWithPath: "/tree/" + path).deletingLastPathComponent().appendingPathComponent(String(firstLine.dropFirst(prefix.count))).standardizedFileURL.path
            let schemaPath = String(target.dropFirst("/tree/".count))
            let kind: Schemas.Kind = path == "msgc.yaml" ? .config : .messages
            #expect(files[schemaPath].map { Array($0.utf8) } == Schemas.schema(kind).canonicalBytes, "\(path) names \(schemaPath)")
            #expect(try SchemaValidator.errors(yaml: text, schema: Schemas.schema(kind)).isEmpty)
        }
    }

    /// `false` turns a check off, for msgc and for the schema: YAML 1.1 readers, such as many
    /// editors' YAML plugins, read `off` as false and write it back so.
    @Test func falseIsOffInRules() throws {
        let config = "bundleId: com.example.app\nsourceLocale: en-US\nlocales: [en-US]\nnamespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b\nproducts:\n  - id: com.example.app.yearly\nrules:\n  LEN002: false\n  TXT011: off\n  TXT012: warning\n"
        #expect(try SchemaValidator.errors(yaml: config, schema: Schemas.schema(.config)).isEmpty)
        // As a YAML 1.1 reader sees `off`: the boolean false.
        let yaml11 = try Resolver.Rule(.bool, "^(?:off|Off|OFF|false|False|FALSE)$")
        let value = try Yams.load(yaml: config, SchemaValidator.core.appending(yaml11))
        var errors: [String] = []
        SchemaValidator.validate(value, against: Schemas.schema(.config), at: "", into: &errors)
        #expect(errors.isEmpty, "\(errors)")
        #expect(try !SchemaValidator.errors(yaml: config.replacingOccurrences(of: "LEN002: false", with: "LEN002: true"), schema: Schemas.schema(.config)).isEmpty)

        let (parsed, _, diagnostics) = ConfigParser.parse(bytes: Array(config.utf8))
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(parsed?.ruleSettings.map(\.level.value) == [.off, .off, .warning])
    }

    static func schema(for path: String) -> JSONValue {
        Schemas.schema(path == "msgc.yaml" ? .config : .messages)
    }

    static let shapeCodes: Set<String> = [
        ParserDiagnostics.unknownKey.code, ParserDiagnostics.wrongType.code, ParserDiagnostics.missingField.code,
        ParserDiagnostics.valueNotAllowed.code,
    ]

    /// Every example of the shape checks: an example that triggers one is invalid for the
    /// schema of its file, and one that does not is valid, as msgc says.
    @Test(arguments: RuleExampleCase.all.filter { shapeCodes.contains($0.info.code) })
    func shapeExampleGetsMsgcsVerdict(_ testCase: RuleExampleCase) throws {
        let tree = ExampleTree(testCase.example)
        let yamlFiles = tree.files.keys.filter { $0 == "msgc.yaml" || ($0.hasPrefix("messages/") && $0.hasSuffix(".yaml")) }
        var invalidFiles: [String] = []
        for path in yamlFiles.sorted() {
            let text = String(decoding: tree.files[path]!, as: UTF8.self)
            if try !SchemaValidator.errors(yaml: text, schema: Self.schema(for: path)).isEmpty { invalidFiles.append(path) }
        }
        switch testCase.example.kind {
        case .valid:
            #expect(invalidFiles.isEmpty, "msgc accepts it; the schema refuses \(invalidFiles)")
        case .invalid:
            let expected = Set(tree.expected.map(\.path))
            #expect(Set(invalidFiles) == expected, "msgc refuses \(expected.sorted()); the schema refuses \(invalidFiles)")
        }
    }

    /// What msgc accepts, the schema accepts: every "does not trigger it" example of every code.
    @Test(arguments: RuleExampleCase.all.filter { $0.example.kind == .valid })
    func everyValidExampleIsValid(_ testCase: RuleExampleCase) throws {
        let tree = ExampleTree(testCase.example)
        for path in tree.files.keys.sorted() where path == "msgc.yaml" || (path.hasPrefix("messages/") && path.hasSuffix(".yaml")) {
            let text = String(decoding: tree.files[path]!, as: UTF8.self)
            let errors = try SchemaValidator.errors(yaml: text, schema: Self.schema(for: path))
            #expect(errors.isEmpty, "\(path): \(errors)")
        }
    }

    @Test func validatorFindsWhatItShould() throws {
        let schema = Schemas.schema(.messages)
        let cases: [(String, String)] = [
            ("messages:\n  - key: a\n    product: p\n    type: text\n    header: H\n    body: B\n", ""),
            ("messages:\n  - key: a\n    product: p\n    type: txt\n    header: H\n    body: B\n", "/messages/0/type"),
            ("messages:\n  - key: a\n    product: p\n    type: text\n    body: B\n", "/messages/0"),
            ("messages:\n  - key: a\n    product: p\n    type: text\n    header: [H]\n    body: B\n", "/messages/0/header"),
            ("messages:\n  - key: a\n    product: p\n    type: text\n    header: H\n    body: B\n    heder: x\n", "/messages/0"),
            ("messages:\n  - key: a\n    product: p\n    type: text\n    header: \(String(repeating: "x", count: 67))\n    body: B\n", "/messages/0/header"),
        ]
        for (yaml, place) in cases {
            let errors = try SchemaValidator.errors(yaml: yaml, schema: schema)
            if place.isEmpty {
                #expect(errors.isEmpty, "\(errors)")
            } else {
                #expect(errors.contains { $0.hasPrefix(place + ":") }, "\(errors)")
            }
        }
    }
}

/// The part of JSON Schema draft-07 that msgc's schemas use: type, enum, pattern, maxLength
/// (in code points), properties, required, additionalProperties, propertyNames and items.
enum SchemaValidator {
    /// YAML 1.2's core schema, as yaml-language-server reads YAML: only true and false are
    /// booleans (`off`, `yes` are text), ~ and empty are null, and numbers as YAML 1.2 writes them.
    static let core: Resolver = {
        var resolver = Resolver.basic
        for rule in [
            try! Resolver.Rule(.bool, "^(?:true|True|TRUE|false|False|FALSE)$"),
            try! Resolver.Rule(.int, "^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"),
            try! Resolver.Rule(.float, "^(?:[-+]?(?:\\.[0-9]+|[0-9]+(?:\\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN))$"),
            try! Resolver.Rule(.null, "^(?:~|null|Null|NULL|)$"),
        ] {
            resolver = resolver.appending(rule)
        }
        return resolver
    }()

    static func errors(yaml: String, schema: JSONValue) throws -> [String] {
        let value = try Yams.load(yaml: yaml, core)
        var errors: [String] = []
        validate(value, against: schema, at: "", into: &errors)
        return errors
    }

    static func validate(_ value: Any?, against schema: JSONValue, at place: String, into errors: inout [String]) {
        guard case .object(let rules) = schema else { return }
        if case .array(let types)? = rules["type"] ?? nil {
            let names = types.compactMap { if case .string(let name) = $0 { name } else { nil } }
            if !names.contains(typeName(value)) { errors.append("\(place): \(typeName(value)) is not \(names)") }
        } else if case .string("integer")? = rules["type"] ?? nil {
            if !(value is Int) { errors.append("\(place): \(typeName(value)) is not integer") }
        } else if case .string(let name)? = rules["type"] ?? nil, name != typeName(value) {
            errors.append("\(place): \(typeName(value)) is not \(name)")
        }
        if case .array(let allowed)? = rules["enum"] ?? nil, !allowed.contains(where: { matches(value, $0) }) {
            errors.append("\(place): \(String(describing: value)) is not allowed")
        }
        if let text = value as? String {
            if case .integer(let limit)? = rules["maxLength"] ?? nil, text.unicodeScalars.count > limit {
                errors.append("\(place): longer than \(limit)")
            }
            if case .string(let pattern)? = rules["pattern"] ?? nil, text.range(of: pattern, options: .regularExpression) == nil {
                errors.append("\(place): does not match \(pattern)")
            }
        }
        if let object = value as? [AnyHashable: Any] {
            let properties = rules["properties"]?.members ?? [:]
            if case .array(let required)? = rules["required"] ?? nil {
                for case .string(let key) in required where object[key] == nil {
                    errors.append("\(place): no '\(key)'")
                }
            }
            for (keyObject, member) in object {
                let key = "\(keyObject.base)"
                if let names = rules["propertyNames"] {
                    validate(key, against: names, at: "\(place)/\(key) (name)", into: &errors)
                }
                if let property = properties[key] {
                    validate(member, against: property, at: "\(place)/\(key)", into: &errors)
                } else if case .bool(false)? = rules["additionalProperties"] ?? nil {
                    errors.append("\(place): unknown key '\(key)'")
                } else if case .object? = rules["additionalProperties"] ?? nil {
                    validate(member, against: rules["additionalProperties"]!, at: "\(place)/\(key)", into: &errors)
                }
            }
        }
        if let array = value as? [Any], let items = rules["items"] {
            for (index, element) in array.enumerated() { validate(element, against: items, at: "\(place)/\(index)", into: &errors) }
        }
    }

    static func typeName(_ value: Any?) -> String {
        switch value {
        case nil, is NSNull: "null"
        case is Bool: "boolean"
        case is Int, is Double: "number"
        case is String: "string"
        case is [Any]: "array"
        case is [AnyHashable: Any]: "object"
        default: "other"
        }
    }

    static func matches(_ value: Any?, _ allowed: JSONValue) -> Bool {
        switch allowed {
        case .null: typeName(value) == "null"
        case .string(let text): (value as? String) == text
        case .bool(let flag): (value as? Bool) == flag
        default: false
        }
    }
}

extension JSONValue {
    /// The members of an object; nil for any other value.
    fileprivate var members: [String: JSONValue]? {
        if case .object(let members) = self { members } else { nil }
    }
}
