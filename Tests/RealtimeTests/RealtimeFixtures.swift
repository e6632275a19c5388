import Bundle
import Foundation
import Model
import Realtime
import TestSupport

/// Signed realtime requests made by scripts/realtime-requests.py (a test PKI shaped like Apple's,
/// valid and hostile requests, Apple's library's verdict on each) in a temporary folder that
/// lives as long as this value, and the snapshot the tests answer them from.
final class RealtimeFixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let python = packageRoot.appendingPathComponent(".build-venv/bin/python").path
    static var available: Bool { FileManager.default.isExecutableFile(atPath: python) }

    /// The signing time of every request (Unix milliseconds); every certificate date follows it.
    static let nowMilliseconds: Int64 = 1_764_100_000_000
    static let now = Date(timeIntervalSince1970: Double(nowMilliseconds) / 1000)
    static let appAppleId: Int64 = 1_234_567_890
    static let bundleId = "com.example.parla"
    static let yearly = "com.example.parla.plus.yearly"
    static let monthly = "com.example.parla.plus.monthly"
    static let offerKeyId = "OFFERKEY42"
    static let issuerId = "57246542-96fe-1a63-e053-0824d011072a"

    struct Entry {
        var name: String
        var file: String
        /// "accept" or "refuse": what msgc must do.
        var msgc: String
        var refusal: String?
        var appleAccepted: Bool
        var stricterThanApple: Bool
        var payload: JSONDocument.Node?
    }

    let tree: TemporaryTree
    let entries: [Entry]

    /// Runs the generator; `apple: false` skips Apple's library's verdicts (faster).
    init(environment: String = "Production", apple: Bool = true) throws {
        tree = try TemporaryTree()
        let out = tree.root.appendingPathComponent("requests").path
        var arguments = [
            Self.packageRoot.appendingPathComponent("scripts/realtime-requests.py").path, "--out", out,
            "--now", String(Self.nowMilliseconds), "--environment", environment, "--bundle-id", Self.bundleId,
        ]
        if !apple { arguments.append("--no-apple") }
        let output = try Self.run(Self.python, arguments)
        guard output.status == 0 else { throw Failure(text: "realtime-requests.py failed: \(output.text)") }
        let manifest = try JSONDocument.parse(Array(try Data(contentsOf: URL(fileURLWithPath: out).appendingPathComponent("manifest.json"))))
        guard case .array(let requests)? = manifest.member("requests")?.value else { throw Failure(text: "manifest without requests") }
        entries = requests.map { node in
            func string(_ key: String) -> String? {
                if case .string(let value)? = node.member(key)?.value { return value }
                return nil
            }
            let apple: String? = if case .string(let verdict)? = node.member("apple")?.member("verdict")?.value { verdict } else { nil }
            let stricter: Bool = if case .bool(let flag)? = node.member("stricterThanApple")?.value { flag } else { false }
            return Entry(
                name: string("name") ?? "?", file: string("file") ?? "?", msgc: string("msgc") ?? "?", refusal: string("refusal"),
                appleAccepted: apple == "accepted", stricterThanApple: stricter, payload: node.member("payload"))
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var text: String
        var description: String { text }
    }

    func read(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: tree.root.appendingPathComponent("requests").appendingPathComponent(path)))
    }

    func entry(_ name: String) -> Entry? { entries.first { $0.name == name } }

    func body(_ name: String) throws -> [UInt8] {
        guard let entry = entry(name) else { throw Failure(text: "no request \(name)") }
        return try read(entry.file)
    }

    var root: [UInt8] { get throws { try read("pki/root.der") } }

    func signer() throws -> OfferSigner {
        try OfferSigner(
            keyFile: tree.root.appendingPathComponent("requests/pki/offer-key.p8").path, keyId: Self.offerKeyId,
            issuerId: Self.issuerId, bundleId: Self.bundleId)
    }

    /// The public half of the offer key, from its PEM SubjectPublicKeyInfo.
    func offerPublicKey() throws -> ES256.PublicKey {
        let pem = String(decoding: try read("pki/offer-key-public.pem"), as: UTF8.self)
        let base64 = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        guard let der = Data(base64Encoded: base64) else { throw Failure(text: "offer-key-public.pem is not PEM") }
        return try ES256.PublicKey(subjectPublicKeyInfo: Array(der))
    }

    func responder(
        environment: Environment = .production, appAppleId: Int64? = appAppleId, signer: Bool = true, snapshot: RealtimeSnapshot? = nil
    ) throws -> RealtimeResponder {
        RealtimeResponder(
            snapshot: snapshot ?? Self.snapshot(environment: environment),
            configuration: .init(trustedRoots: [try root], appAppleId: appAppleId, offerSigner: signer ? try self.signer() : nil))
    }

    /// The generator's products and locales: en-US answers with the offer (switch-plan and text
    /// besides), de-DE and es-MX with the switch to monthly, fr-FR and zh-Hans with text (the
    /// default), ja with nothing but the offer; ko-KR and tlh-001 have no locale.
    static func snapshot(environment: Environment = .production) -> RealtimeSnapshot {
        var serial = 0
        func identifier() -> String {
            serial += 1
            return "00000000-0000-5000-8000-" + String(format: "%012x", serial)
        }
        func winback() -> RealtimeSnapshot.Answer {
            .init(key: "winback", type: .text, identifier: identifier(), images: [], version: .current)
        }
        func goMonthly() -> RealtimeSnapshot.Answer {
            .init(key: "go-monthly", type: .switchPlan, identifier: identifier(), images: [], productId: monthly, billingPlanType: "MONTHLY",
                  version: .current)
        }
        func halfPrice() -> RealtimeSnapshot.Answer {
            .init(key: "half-price", type: .promotionalOffer, identifier: identifier(), images: [], offerIdentifier: "plus.yearly.half_price", version: .current)
        }
        let locales: [RealtimeSnapshot.Locale] = [
            .init(locale: "de-DE", defaultKey: "winback", messages: [goMonthly(), winback()]),
            .init(locale: "en-US", defaultKey: "winback", messages: [goMonthly(), halfPrice(), winback()]),
            .init(locale: "es-MX", defaultKey: "go-monthly", messages: [goMonthly()]),
            .init(locale: "fr-FR", defaultKey: "winback", messages: [winback()]),
            .init(locale: "ja", defaultKey: "half-price", messages: [halfPrice()]),
            .init(locale: "zh-Hans", defaultKey: "winback", messages: [winback()]),
        ]
        return RealtimeSnapshot(
            generatorVersion: "test", bundleId: bundleId, environment: environment, bundleDigest: "sha256:" + String(repeating: "0", count: 64),
            release: nil,
            products: [
                .init(id: monthly, group: "plus", choice: nil, realtime: [], locales: []),
                .init(id: yearly, group: "plus", choice: .firstUsable, realtime: [.init(message: "half-price", weight: 1), .init(message: "go-monthly", weight: 1)], locales: locales),
            ],
            omitted: [])
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, text: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
