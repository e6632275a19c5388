import Bundle
import Foundation
import Model
import Realtime
import Testing
import TestSupport

/// Signed notifications made by scripts/realtime-notifications.py (realtime-requests.py's test
/// PKI, valid and hostile notifications, Apple's library's verdict and decoding of each) in a
/// temporary folder that lives as long as this value.
final class NotificationFixtures {
    struct Entry {
        var name: String
        var file: String
        /// "accept" or "refuse": what msgc must do.
        var msgc: String
        var refusal: String?
        var part: String?
        var expectedKind: String?
        var appleAccepted: Bool
        var stricterThanApple: Bool
        /// What Apple's library decoded, when it accepted.
        var appleDecoded: JSONDocument.Node?
    }

    let tree: TemporaryTree
    let entries: [Entry]
    let environment: Environment

    init(environment: Environment = .production, apple: Bool = true) throws {
        self.environment = environment
        tree = try TemporaryTree()
        let out = tree.root.appendingPathComponent("notifications").path
        var arguments = [
            RealtimeFixtures.packageRoot.appendingPathComponent("scripts/realtime-notifications.py").path, "--out", out,
            "--now", String(RealtimeFixtures.nowMilliseconds), "--environment", DecodedRealtimeRequest.name(of: environment),
            "--bundle-id", RealtimeFixtures.bundleId, "--app-apple-id", String(RealtimeFixtures.appAppleId),
        ]
        if !apple { arguments.append("--no-apple") }
        let output = try RealtimeFixtures.run(RealtimeFixtures.python, arguments)
        guard output.status == 0 else { throw RealtimeFixtures.Failure(text: "realtime-notifications.py failed: \(output.text)") }
        let manifest = try JSONDocument.parse(Array(try Data(contentsOf: URL(fileURLWithPath: out).appendingPathComponent("manifest.json"))))
        guard case .array(let notifications)? = manifest.member("notifications")?.value else {
            throw RealtimeFixtures.Failure(text: "manifest without notifications")
        }
        entries = notifications.map { node in
            func string(_ key: String) -> String? {
                if case .string(let value)? = node.member(key)?.value { return value }
                return nil
            }
            let apple: String? = if case .string(let verdict)? = node.member("apple")?.member("verdict")?.value { verdict } else { nil }
            let stricter: Bool = if case .bool(let flag)? = node.member("stricterThanApple")?.value { flag } else { false }
            return Entry(
                name: string("name") ?? "?", file: string("file") ?? "?", msgc: string("msgc") ?? "?", refusal: string("refusal"),
                part: string("part"), expectedKind: string("expectedKind"), appleAccepted: apple == "accepted",
                stricterThanApple: stricter, appleDecoded: node.member("apple")?.member("decoded"))
        }
    }

    func read(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: tree.root.appendingPathComponent("notifications").appendingPathComponent(path)))
    }

    func body(_ name: String) throws -> [UInt8] {
        guard let entry = entries.first(where: { $0.name == name }) else { throw RealtimeFixtures.Failure(text: "no notification \(name)") }
        return try read(entry.file)
    }

    func verifier(appAppleId: Int64? = RealtimeFixtures.appAppleId) throws -> NotificationVerifier {
        try NotificationVerifier(
            configuration: .init(
                trustedRoots: [try read("pki/root.der")], bundleId: RealtimeFixtures.bundleId, environment: environment, appAppleId: appAppleId))
    }

    /// Apple's library's decoding, in DecodedNotification's shape (null: nil).
    static func decoded(_ node: JSONDocument.Node) -> DecodedNotification {
        func string(_ node: JSONDocument.Node?, _ key: String) -> String? {
            if case .string(let value)? = node?.member(key)?.value { return value }
            return nil
        }
        func integer(_ node: JSONDocument.Node?, _ key: String) -> Int64? {
            if case .number(let text)? = node?.member(key)?.value { return Int64(text) }
            return nil
        }
        func object(_ key: String) -> JSONDocument.Node? {
            if case .object? = node.member(key)?.value { return node.member(key) }
            return nil
        }
        let transaction = object("transaction").map { node in
            DecodedNotification.Transaction(
                originalTransactionId: string(node, "originalTransactionId"), transactionId: string(node, "transactionId"),
                productId: string(node, "productId"), offerIdentifier: string(node, "offerIdentifier"),
                offerType: integer(node, "offerType").map(Int.init), signedDate: integer(node, "signedDate"), bundleId: string(node, "bundleId"),
                environment: string(node, "environment"))
        }
        let renewalInfo = object("renewalInfo").map { node in
            DecodedNotification.RenewalInfo(
                originalTransactionId: string(node, "originalTransactionId"), productId: string(node, "productId"),
                autoRenewProductId: string(node, "autoRenewProductId"), autoRenewStatus: integer(node, "autoRenewStatus").map(Int.init),
                offerIdentifier: string(node, "offerIdentifier"), offerType: integer(node, "offerType").map(Int.init),
                signedDate: integer(node, "signedDate"), environment: string(node, "environment"))
        }
        return DecodedNotification(
            notificationUUID: string(node, "notificationUUID"), notificationType: string(node, "notificationType"),
            subtype: string(node, "subtype"), signedDate: integer(node, "signedDate"), environment: string(node, "environment"),
            bundleId: string(node, "bundleId"), appAppleId: integer(node, "appAppleId"), transaction: transaction, renewalInfo: renewalInfo)
    }
}

@Suite(.ownThreads, .enabled(if: RealtimeFixtures.available, "needs .build-venv (scripts/test.sh makes it) for realtime-notifications.py"))
struct NotificationVerifierTests {
    /// Where msgc refuses what Apple's library accepts, by environment (docs/realtime.md,
    /// "Verifying Apple's notifications"): nothing else may differ.
    static func stricterThanApple(_ environment: Environment) -> Set<String> {
        var names: Set<String> = [
            "oversized-body", "payload-not-base64url", "signed-date-as-string", "notification-type-as-number",
            "transaction-offer-type-as-string",
        ]
        switch environment {
        case .production: names.insert("app-apple-id-as-string")
        case .sandbox: names.insert("other-app-apple-id")
        }
        return names
    }

    /// msgc's verdict on every notification is Apple's library's, but for the listed stricter
    /// cases; each refusal names the reason and the part the generator planted; what msgc decodes
    /// from what both accept is what Apple's library decoded.
    @Test(arguments: [Environment.production, .sandbox])
    func agreesWithApplesLibrary(environment: Environment) throws {
        let fixtures = try NotificationFixtures(environment: environment)
        let verifier = try fixtures.verifier()
        #expect(fixtures.entries.count > 40)
        var stricter: Set<String> = []
        for entry in fixtures.entries {
            let result = verifier.verify(body: try fixtures.read(entry.file), now: RealtimeFixtures.now)
            switch result {
            case .success(let notification):
                #expect(entry.msgc == "accept", "\(entry.name): accepted, should be refused as \(entry.refusal ?? "?")")
                #expect(entry.appleAccepted, "\(entry.name): Apple's library refuses it")
                #expect(notification.kind.rawValue == entry.expectedKind, "\(entry.name)")
                if let decoded = entry.appleDecoded {
                    #expect(notification == NotificationFixtures.decoded(decoded), "\(entry.name)")
                } else {
                    Issue.record("\(entry.name): Apple's library decoded nothing")
                }
            case .failure(let refusal):
                #expect(entry.msgc == "refuse", "\(entry.name): refused as \(refusal)")
                #expect(refusal.reason.rawValue == entry.refusal && refusal.part.rawValue == entry.part, "\(entry.name): \(refusal)")
                if entry.appleAccepted {
                    #expect(entry.stricterThanApple, "\(entry.name)")
                    stricter.insert(entry.name)
                }
            }
        }
        #expect(stricter == Self.stricterThanApple(environment))
    }

    /// No age bound: Apple's retries keep their signedDate for about 157 hours, and every valid
    /// notification still verifies, and decodes the same, a week after it was signed.
    @Test func retriesVerifyDaysLater() throws {
        let fixtures = try NotificationFixtures(apple: false)
        let verifier = try fixtures.verifier()
        let weekLater = RealtimeFixtures.now.addingTimeInterval(7 * 86_400)
        for entry in fixtures.entries where entry.msgc == "accept" {
            let body = try fixtures.read(entry.file)
            let atOnce = try verifier.verify(body: body, now: RealtimeFixtures.now).get()
            #expect(try verifier.verify(body: body, now: weekLater).get() == atOnce, "\(entry.name)")
        }
        let retry = try verifier.verify(body: try fixtures.body("retry-157-hours-old"), now: RealtimeFixtures.now).get()
        #expect(retry.signedDate == RealtimeFixtures.nowMilliseconds - 157 * 3_600_000)
        #expect(retry.kind == .autoRenewDisabled && retry.renewalInfo?.autoRenewStatus == 0)
    }

    /// The members an experiment reads, from the relevant kinds.
    @Test func relevantKindsCarryWhatTheReportNeeds() throws {
        let fixtures = try NotificationFixtures(apple: false)
        let verifier = try fixtures.verifier()
        func verified(_ name: String) throws -> DecodedNotification {
            try verifier.verify(body: try fixtures.body(name), now: RealtimeFixtures.now).get()
        }
        let offer = try verified("offer-redeemed")
        #expect(offer.kind == .offerRedeemed && offer.offerIdentifier == "plus.yearly.half_price" && offer.transaction?.offerType == 2)
        #expect(offer.originalTransactionId != nil && offer.originalTransactionId == offer.renewalInfo?.originalTransactionId)
        let offerInRenewal = try verified("offer-redeemed-in-renewal-info")
        #expect(offerInRenewal.transaction?.offerIdentifier == nil && offerInRenewal.offerIdentifier == "plus.yearly.half_price")
        let switched = try verified("renewal-pref-downgrade")
        #expect(switched.kind == .renewalPreferenceChanged && switched.autoRenewProductId == RealtimeFixtures.monthly)
        #expect(try verified("auto-renew-disabled").kind == .autoRenewDisabled)
        #expect(try verified("auto-renew-enabled").kind == .autoRenewEnabled)
        let unknown = try verified("unknown-future-type")
        #expect(unknown.kind == .notRelevant && unknown.notificationType == "SUBSCRIPTION_PAUSED" && unknown.subtype == "PAUSED_BY_USER")
        let minimal = try verified("minimal")
        #expect(minimal.notificationUUID == nil && minimal.signedDate == nil && minimal.transaction == nil && minimal.originalTransactionId == nil)
    }

    /// `verify(signedPayload:)` (one line of an import) gives what the body gives.
    @Test func signedPayloadAloneVerifiesAsTheBody() throws {
        let fixtures = try NotificationFixtures(apple: false)
        let verifier = try fixtures.verifier()
        for name in ["offer-redeemed", "bad-signature", "transaction-other-root", "other-environment"] {
            let body = try fixtures.body(name)
            let document = try JSONDocument.parse(body)
            guard case .string(let signedPayload)? = document.member("signedPayload")?.value else {
                Issue.record("\(name): no signedPayload")
                continue
            }
            #expect(verifier.verify(signedPayload: signedPayload, now: RealtimeFixtures.now) == verifier.verify(body: body, now: RealtimeFixtures.now))
        }
    }

    /// Statuses: 400 what cannot be read, 401 what is not shown to be Apple's (nested included),
    /// 403 another app or environment, 413 a body over the cap.
    @Test func refusalsCarryTheirStatus() throws {
        let fixtures = try NotificationFixtures(apple: false)
        let verifier = try fixtures.verifier()
        let expected: [String: Int] = [
            "body-not-json": 400, "no-signed-payload": 400, "jws-two-segments": 400, "payload-not-base64url": 400, "data-not-object": 400,
            "other-root": 401, "leaf-without-oid": 401, "bad-signature": 401, "transaction-bad-signature": 401,
            "renewal-info-other-root": 401, "other-bundle-id": 403, "other-environment": 403, "other-app-apple-id": 403,
            "renewal-info-other-environment": 403, "oversized-body": 413,
        ]
        for (name, status) in expected {
            guard case .failure(let refusal) = verifier.verify(body: try fixtures.body(name), now: RealtimeFixtures.now) else {
                Issue.record("\(name): accepted")
                continue
            }
            #expect(refusal.status == status, "\(name): \(refusal)")
        }
    }

    /// Sandbox without an app Apple ID checks none, as Apple's library; production needs one.
    @Test func configuration() throws {
        let fixtures = try NotificationFixtures(environment: .sandbox, apple: false)
        let open = try fixtures.verifier(appAppleId: nil)
        #expect((try? open.verify(body: try fixtures.body("other-app-apple-id"), now: RealtimeFixtures.now).get()) != nil)
        #expect(throws: NotificationVerifier.ConfigurationProblem.self) {
            try NotificationVerifier(configuration: .init(bundleId: RealtimeFixtures.bundleId, environment: .production, appAppleId: nil))
        }
        #expect(throws: NotificationVerifier.ConfigurationProblem.self) {
            try NotificationVerifier(configuration: .init(trustedRoots: [[0x30, 0x00]], bundleId: RealtimeFixtures.bundleId, environment: .sandbox, appAppleId: nil))
        }
        #expect((try? NotificationVerifier(configuration: .init(bundleId: RealtimeFixtures.bundleId, environment: .production, appAppleId: 1))) != nil)
    }

    /// Lengths are capped before anything is decoded.
    @Test func capsBeforeDecoding() throws {
        let verifier = try NotificationVerifier(configuration: .init(bundleId: RealtimeFixtures.bundleId, environment: .sandbox, appAppleId: nil))
        let huge = [UInt8](repeating: UInt8(ascii: " "), count: NotificationVerifier.maxBodySize + 1)
        #expect(verifier.verify(body: huge, now: RealtimeFixtures.now) == .failure(NotificationRefusal(.bodyTooLarge, in: .body)))
        let long = String(repeating: "a", count: NotificationVerifier.maxBodySize + 1)
        #expect(verifier.verify(signedPayload: long, now: RealtimeFixtures.now) == .failure(NotificationRefusal(.malformedJWS, in: .notification)))
    }
}

extension NotificationVerifierTests {
    /// The fuzzer's seeds (Fuzz/Seeds/notifications) are the generator's bodies for the
    /// arguments its harness trusts (`--now 1764100000000`, the default seed, com.example.parla,
    /// 1234567890, Production): every valid and hostile one but the 100 KB `oversized-body`,
    /// which would only raise libFuzzer's input length.
    @Test func theFuzzSeedsAreTheGeneratorsBodies() throws {
        let fixtures = try NotificationFixtures(apple: false)
        let seeds = RealtimeFixtures.packageRoot.appendingPathComponent("Fuzz/Seeds/notifications")
        var seen: Set<String> = []
        for kind in ["valid", "hostile"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: seeds.appendingPathComponent(kind).path).filter { $0.hasSuffix(".json") }
            for name in names {
                let seed = Array(try Data(contentsOf: seeds.appendingPathComponent(kind).appendingPathComponent(name)))
                #expect(seed == (try fixtures.read("\(kind)/\(name)")), "\(kind)/\(name) differs from the generator's")
                seen.insert("\(kind)/\(name)")
            }
        }
        let expected = Set(fixtures.entries.map(\.file)).subtracting(["hostile/oversized-body.json"])
        #expect(seen == expected)
    }
}
