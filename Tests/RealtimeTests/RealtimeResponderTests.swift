import Bundle
import Diagnostics
import Foundation
import Model
import TestSupport
import Testing

@testable import Realtime

/// The request handling library against the requests scripts/realtime-requests.py signs with a
/// test PKI shaped like Apple's, and against Apple's Python library's verdicts on them.
@Suite(.ownThreads, .enabled(if: RealtimeFixtures.available, "needs .build-venv (scripts/test.sh makes it) for realtime-requests.py"))
struct RealtimeResponderTests {
    /// Where msgc refuses what Apple's library accepts, each documented in docs/realtime.md.
    static let stricterThanApple: Set<String> = [
        "huge-body", "x5c-third-is-another-root", "stale-signed-date", "future-signed-date", "payload-appAppleId-as-string",
        "payload-signedDate-as-string", "payload-originalTransactionId-as-number", "payload-productId-null",
        "header-crit-b64-true", "claims-exp-as-string",
    ]

    @Test func everyRequestGetsTheManifestsVerdictAndAgreesWithApplesLibrary() throws {
        let fixtures = try RealtimeFixtures()
        let responder = try fixtures.responder()
        #expect(responder.configurationProblem == nil)
        #expect(fixtures.entries.count > 50)
        var stricter: Set<String> = []
        for entry in fixtures.entries {
            let reply = responder.respond(to: try fixtures.read(entry.file), receivedAt: RealtimeFixtures.now)
            if entry.msgc == "accept" {
                if case .refused(let reason) = reply.outcome { Issue.record("\(entry.name) refused as \(reason.rawValue)") }
                #expect(reply.requestIdentifier != nil, "\(entry.name)")
            } else {
                #expect(reply.outcome == .refused(try #require(entry.refusal.flatMap(RealtimeRefusal.init(rawValue:)))), "\(entry.name)")
                #expect(reply.body.isEmpty && reply.status >= 400, "\(entry.name)")
                // Only a payload whose signature verified (refused for its app, environment or
                // age) names its request; nothing of an unverified one is taken as Apple's. A
                // registered claim (`exp`, `iat`, `nbf`) refused as stale or future is refused by
                // the verifier, before the payload is read as a request: it names none.
                let verified: Set<RealtimeRefusal> = [.wrongApp, .wrongEnvironment, .stale, .future]
                if case .refused(let reason) = reply.outcome {
                    let named = verified.contains(reason) && !entry.name.hasPrefix("claims-")
                    #expect((reply.requestIdentifier != nil) == named, "\(entry.name)")
                }
            }
            let accepted = entry.msgc == "accept"
            if accepted != entry.appleAccepted {
                #expect(entry.stricterThanApple, "\(entry.name): msgc and Apple's library differ, undocumented")
                stricter.insert(entry.name)
            }
        }
        #expect(stricter == Self.stricterThanApple)
    }

    /// Valid requests: the snapshot's answer for the locale, in Apple's shape; none refused.
    @Test func validRequestsAreAnsweredFromTheMatchingLocale() throws {
        let fixtures = try RealtimeFixtures(apple: false)
        let responder = try fixtures.responder()
        let expected: [String: (RealtimeReply.Outcome, String?)] = [
            "com.example.parla.plus.yearly--en-US": (.answered(.promotionalOffer), "en-US"),
            "com.example.parla.plus.yearly--en-GB": (.answered(.promotionalOffer), "en-US"),
            "underscore-locale": (.answered(.promotionalOffer), "en-US"),
            "com.example.parla.plus.yearly--de-DE": (.answered(.alternateProduct), "de-DE"),
            "com.example.parla.plus.yearly--es-ES": (.answered(.alternateProduct), "es-MX"),
            "com.example.parla.plus.yearly--fr-FR": (.answered(.message), "fr-FR"),
            "com.example.parla.plus.yearly--zh-CN": (.answered(.message), "zh-Hans"),
            "com.example.parla.plus.yearly--ja-JP": (.answered(.promotionalOffer), "ja"),
            "com.example.parla.plus.yearly--ko-KR": (.unanswered, nil),
            "unknown-locale": (.unanswered, nil),
            "unknown-product": (.unanswered, nil),
        ]
        for (name, (outcome, locale)) in expected {
            let reply = responder.respond(to: try fixtures.body(name), receivedAt: RealtimeFixtures.now)
            #expect(reply.outcome == outcome, "\(name)")
            #expect(reply.locale == locale, "\(name)")
            if outcome == .unanswered {
                #expect(reply.status == RealtimeReply.unansweredStatus && reply.body.isEmpty, "\(name)")
                let reason: RealtimeReply.Unanswered = name == "unknown-product" ? .unknownProduct : .noLocale
                #expect(reply.unansweredReason == reason, "\(name)")
            } else {
                #expect(reply.unansweredReason == nil, "\(name)")
                #expect(reply.status == 200 && reply.messageKey != nil && reply.messageIdentifier != nil, "\(name)")
            }
        }
        let reply = responder.respond(to: try fixtures.body("com.example.parla.plus.yearly--de-DE"), receivedAt: RealtimeFixtures.now)
        let identifier = try #require(reply.messageIdentifier)
        #expect(String(decoding: reply.body, as: UTF8.self)
            == #"{"alternateProduct":{"billingPlanType":"MONTHLY","messageIdentifier":"\#(identifier)","productId":"com.example.parla.plus.monthly"}}"#)
        #expect(reply.productId == RealtimeFixtures.yearly && reply.userLocale == "de-DE" && reply.messageKey == "go-monthly")
    }

    /// Every answer is read by Apple's own models (scripts/check-realtime-response-with-apple-library.py)
    /// and passes `msgc realtime check`'s judge with no finding.
    @Test func answersPassApplesModelsAndTheJudge() throws {
        let fixtures = try RealtimeFixtures(apple: false)
        let responder = try fixtures.responder()
        var files: [String] = []
        var kinds: Set<RealtimeSnapshot.Answer.Kind> = []
        for entry in fixtures.entries where entry.msgc == "accept" {
            let reply = responder.respond(to: try fixtures.read(entry.file), receivedAt: RealtimeFixtures.now)
            guard case .answered(let kind) = reply.outcome else { continue }
            kinds.insert(kind)
            let request = ResponseCheck.Request(product: try #require(reply.productId), userLocale: try #require(reply.userLocale))
            let findings = ResponseCheck.check(reply.body, path: "\(entry.name).json", snapshot: responder.snapshot, request: request)
            #expect(findings.isEmpty, "\(entry.name): \(findings.map(\.message))")
            let path = "answers/\(entry.name).json"
            try fixtures.tree.write(path, bytes: reply.body)
            files.append(fixtures.tree.root.appendingPathComponent(path).path)
        }
        #expect(kinds == Set(RealtimeSnapshot.Answer.Kind.allCases))
        let script = RealtimeFixtures.packageRoot.appendingPathComponent("scripts/check-realtime-response-with-apple-library.py").path
        let output = try RealtimeFixtures.run(RealtimeFixtures.python, [script] + files)
        #expect(output.status == 0)
        let lines = output.text.split(separator: "\n")
        #expect(lines.count == files.count && lines.allSatisfy { $0 == "ok" }, "\(output.text)")
    }

    /// An offer's signature: the offer key's ES256 over Apple's header and claims, for this very
    /// request (its originalTransactionId, a fresh nonce), as PyJWT reads it too.
    @Test func offerSignaturesVerifyWithThePublicKeyAndNameThisRequest() throws {
        let fixtures = try RealtimeFixtures(apple: false)
        let responder = try fixtures.responder()
        let entry = try #require(fixtures.entry("com.example.parla.plus.yearly--en-US"))
        let body = try fixtures.read(entry.file)
        let first = responder.respond(to: body, receivedAt: RealtimeFixtures.now)
        let second = responder.respond(to: body, receivedAt: RealtimeFixtures.now)
        #expect(first.outcome == .answered(.promotionalOffer))
        let answer = try JSONDocument.parse(first.body)
        #expect(answer.member("promotionalOffer")?.member("messageIdentifier") != nil)
        guard case .string(let jws)? = answer.member("promotionalOffer")?.member("promotionalOfferSignatureV2")?.value else {
            Issue.record("no promotionalOfferSignatureV2 in \(String(decoding: first.body, as: UTF8.self))")
            return
        }
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        let key = try fixtures.offerPublicKey()
        let signature = try #require(Base64URL.decode(parts[2].utf8))
        #expect(key.verify(signature: signature, of: Array((parts[0] + "." + parts[1]).utf8)))
        var forged = signature
        forged[10] ^= 1
        #expect(!key.verify(signature: forged, of: Array((parts[0] + "." + parts[1]).utf8)))

        let header = try JSONDocument.parse(try #require(Base64URL.decode(parts[0].utf8)))
        let claims = try JSONDocument.parse(try #require(Base64URL.decode(parts[1].utf8)))
        func string(_ node: JSONDocument.Node, _ key: String) -> String? {
            if case .string(let value)? = node.member(key)?.value { return value }
            return nil
        }
        #expect(string(header, "alg") == "ES256" && string(header, "kid") == RealtimeFixtures.offerKeyId && string(header, "typ") == "JWT")
        let payload = try #require(entry.payload)
        #expect(string(claims, "aud") == "promotional-offer")
        #expect(string(claims, "bid") == RealtimeFixtures.bundleId && string(claims, "iss") == RealtimeFixtures.issuerId)
        #expect(string(claims, "productId") == RealtimeFixtures.yearly && string(claims, "offerIdentifier") == "plus.yearly.half_price")
        #expect(string(claims, "transactionId") == string(payload, "originalTransactionId"))
        #expect(UUIDText.parse(try #require(string(claims, "nonce"))) != nil)
        if case .number(let iat)? = claims.member("iat")?.value { #expect(Int64(iat) == RealtimeFixtures.nowMilliseconds / 1000) } else {
            Issue.record("iat is not a number")
        }
        #expect(first.body != second.body, "a fresh nonce per request")

        // PyJWT (which Apple's library signs with) verifies it with the public half.
        let check = """
            import sys, jwt
            claims = jwt.decode(sys.argv[1], open(sys.argv[2]).read(), algorithms=["ES256"], audience="promotional-offer")
            print(claims["offerIdentifier"], claims["transactionId"])
            """
        let output = try RealtimeFixtures.run(
            RealtimeFixtures.python, ["-c", check, jws, fixtures.tree.root.appendingPathComponent("requests/pki/offer-key-public.pem").path])
        #expect(output.status == 0 && output.text == "plus.yearly.half_price \(string(payload, "originalTransactionId") ?? "?")\n", "\(output.text)")
    }

    /// Without an In-App Purchase key no offer is answered: the chooser goes on to the next arm
    /// or the default, and a locale with nothing but an offer is unanswered.
    @Test func withoutASignerOffersAreSkipped() throws {
        let fixtures = try RealtimeFixtures(apple: false)
        let responder = try fixtures.responder(signer: false)
        let english = responder.respond(to: try fixtures.body("com.example.parla.plus.yearly--en-US"), receivedAt: RealtimeFixtures.now)
        #expect(english.outcome == .answered(.alternateProduct) && english.messageKey == "go-monthly")
        let japanese = responder.respond(to: try fixtures.body("com.example.parla.plus.yearly--ja-JP"), receivedAt: RealtimeFixtures.now)
        #expect(japanese.outcome == .unanswered && japanese.locale == "ja" && japanese.status == 404)
        #expect(japanese.unansweredReason == .nothingUsable)
        // What is left to answer with: the Japanese offer alone no longer counts.
        #expect(responder.answersSomething)
        #expect(try fixtures.responder().answersSomething)
    }

    /// A snapshot answers something when some product has a locale with a message this
    /// configuration can send: offers count only with the key.
    @Test func answersSomethingCountsOnlyWhatCanBeSent() throws {
        let fixtures = try RealtimeFixtures(apple: false)
        var onlyOffers = RealtimeFixtures.snapshot()
        for index in onlyOffers.products.indices { onlyOffers.products[index].locales.removeAll { $0.locale != "ja" } }
        #expect(try fixtures.responder(snapshot: onlyOffers).answersSomething)
        #expect(try !fixtures.responder(signer: false, snapshot: onlyOffers).answersSomething)
        var empty = RealtimeFixtures.snapshot()
        for index in empty.products.indices { empty.products[index].locales = [] }
        #expect(try !fixtures.responder(snapshot: empty).answersSomething)
        empty.products = []
        #expect(try !fixtures.responder(snapshot: empty).answersSomething)
    }

    /// A weight is bounded where a snapshot is read: weights that would sum past 2^64 (and
    /// crash a chooser's arithmetic) are refused with the range, the largest allowed reads.
    @Test func snapshotWeightsAreBoundedWhereRead() throws {
        var snapshot = RealtimeFixtures.snapshot()
        // The generator's defaults need not be text; the reader insists, and weights are read first.
        for product in snapshot.products.indices {
            for locale in snapshot.products[product].locales.indices { snapshot.products[product].locales[locale].defaultKey = nil }
        }
        let index = try #require(snapshot.products.firstIndex { $0.locales.contains { $0.messages.count >= 2 } })
        let keys = try #require(snapshot.products[index].locales.first { $0.messages.count >= 2 }).messages.map(\.key)
        snapshot.products[index].choice = .weighted
        snapshot.products[index].realtime = [
            RealtimeSnapshot.Arm(message: keys[0], weight: RealtimeChoice.maxWeight), RealtimeSnapshot.Arm(message: keys[1], weight: 1),
        ]
        let decoded = try RealtimeSnapshot.decode(snapshot.json.canonicalBytes, path: "snapshot.json")
        #expect(decoded.products[index].realtime.map(\.weight) == [RealtimeChoice.maxWeight, 1])
        for weight in [RealtimeChoice.maxWeight + 1, Int.max, 0] {
            snapshot.products[index].realtime[0].weight = weight
            #expect {
                try RealtimeSnapshot.decode(snapshot.json.canonicalBytes, path: "snapshot.json")
            } throws: { error in
                "\(error)".contains("\"weight\" \(weight) is out of range: give 1 to 1000000")
            }
        }
    }

    /// signedDate's age is judged against the time the request arrived; the certificates'
    /// validity against signedDate, not against that time.
    @Test func signedDateMustBeRecent() throws {
        let fixtures = try RealtimeFixtures(apple: false)
        let responder = try fixtures.responder()
        let body = try fixtures.body("com.example.parla.plus.yearly--fr-FR")
        func outcome(after seconds: Double) -> RealtimeReply.Outcome {
            responder.respond(to: body, receivedAt: RealtimeFixtures.now.addingTimeInterval(seconds)).outcome
        }
        #expect(outcome(after: 300) == .answered(.message))
        #expect(outcome(after: 301) == .refused(.stale))
        #expect(outcome(after: 86_400 * 365 * 40) == .refused(.stale))
        #expect(outcome(after: -60) == .answered(.message))
        #expect(outcome(after: -61) == .refused(.future))
        let strict = try RealtimeResponder(
            snapshot: RealtimeFixtures.snapshot(),
            configuration: .init(trustedRoots: [fixtures.root], appAppleId: RealtimeFixtures.appAppleId, maxRequestAge: 10, maxClockSkew: 0, offerSigner: nil))
        #expect(strict.respond(to: body, receivedAt: RealtimeFixtures.now.addingTimeInterval(11)).outcome == .refused(.stale))
        #expect(strict.respond(to: body, receivedAt: RealtimeFixtures.now.addingTimeInterval(-1)).outcome == .refused(.future))
    }

    /// Apple's library checks appAppleId in production only; msgc checks it in sandbox too when
    /// it is configured, and refuses nothing for it when it is not.
    @Test func sandboxChecksTheAppOnlyWhenConfigured() throws {
        let fixtures = try RealtimeFixtures(environment: "Sandbox", apple: false)
        let body = try fixtures.body("com.example.parla.plus.yearly--fr-FR")
        let open = try fixtures.responder(environment: .sandbox, appAppleId: nil)
        #expect(open.configurationProblem == nil)
        #expect(open.respond(to: body, receivedAt: RealtimeFixtures.now).outcome == .answered(.message))
        let other = try fixtures.responder(environment: .sandbox, appAppleId: 42)
        let refused = other.respond(to: body, receivedAt: RealtimeFixtures.now)
        #expect(refused.outcome == .refused(.wrongApp))
        // Refused after its signature verified: the reply names the request for the log.
        #expect(refused.productId == "com.example.parla.plus.yearly" && refused.userLocale == "fr-FR")
        #expect(refused.requestIdentifier?.count == 36 && refused.body.isEmpty)
        let production = try fixtures.responder(environment: .production)
        #expect(production.respond(to: body, receivedAt: RealtimeFixtures.now).outcome == .refused(.wrongEnvironment))
        let unidentified = try fixtures.responder(environment: .production, appAppleId: nil)
        // The problem names the flag that gives the id, not only the id.
        #expect(unidentified.configurationProblem?.contains("--app-apple-id ID") == true, "\(unidentified.configurationProblem ?? "")")
        #expect(unidentified.respond(to: body, receivedAt: RealtimeFixtures.now).outcome == .refused(.wrongApp))
    }

    /// Every refusal is reached by some request: the manifest's hostile requests and a few made here.
    @Test func everyRefusalIsReached() throws {
        let fixtures = try RealtimeFixtures(apple: false)
        let responder = try fixtures.responder()
        var seen: Set<RealtimeRefusal> = []
        for entry in fixtures.entries {
            if case .refused(let reason) = responder.respond(to: try fixtures.read(entry.file), receivedAt: RealtimeFixtures.now).outcome {
                seen.insert(reason)
            }
        }
        #expect(seen == Set(RealtimeRefusal.allCases), "never reached: \(Set(RealtimeRefusal.allCases).subtracting(seen))")
        for reason in RealtimeRefusal.allCases { #expect([400, 401, 403, 413].contains(reason.status)) }
    }

    /// The request's JWS checks with the leaf certificate's key, read by Bundle's ES256.
    @Test func theLeafCertificatesKeyVerifiesTheRequest() throws {
        let fixtures = try RealtimeFixtures(apple: false)
        let body = String(decoding: try fixtures.body("com.example.parla.plus.yearly--fr-FR"), as: UTF8.self)
        let jws = try #require(body.split(separator: "\"").dropFirst(3).first)
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        let leaf = try ES256.PublicKey(certificate: try fixtures.read("pki/leaf.der"))
        #expect(leaf.verify(signature: try #require(Base64URL.decode(parts[2].utf8)), of: Array((parts[0] + "." + parts[1]).utf8)))
    }

    /// Hand-made hostile bodies around the caps and the JWS's parts.
    @Test func hostileBodiesAreRefusedAtTheRightStep() throws {
        let fixtures = try RealtimeFixtures(apple: false)
        let responder = try fixtures.responder()
        let valid = String(decoding: try fixtures.body("com.example.parla.plus.yearly--fr-FR"), as: UTF8.self)
        let jws = try #require(valid.split(separator: "\"").dropFirst(3).first.map(String.init))
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        func outcome(_ body: String) -> RealtimeReply.Outcome { responder.respond(to: Array(body.utf8), receivedAt: RealtimeFixtures.now).outcome }
        func outcome(jws: String) -> RealtimeReply.Outcome { outcome(#"{"signedPayload":"\#(jws)"}"#) }
        #expect(outcome(jws: jws) == .answered(.message))
        #expect(outcome(String(repeating: " ", count: RealtimeResponder.maxBodySize + 1)) == .refused(.bodyTooLarge))
        #expect(outcome(jws: String(repeating: "a", count: RealtimeRequestVerifier.maxJWSLength + 1)) == .refused(.malformedJWS))
        #expect(outcome(jws: jws + ".") == .refused(.malformedJWS))
        #expect(outcome(jws: parts[0] + "=." + parts[1] + "." + parts[2]) == .refused(.malformedJWS), "padding")
        #expect(outcome(jws: parts[0] + "." + parts[1] + "." + parts[2] + "AAA") == .refused(.malformedJWS), "a length of 1 mod 4")
        #expect(outcome(jws: parts[0] + "." + parts[1] + "." + parts[2].dropLast() + "B") == .refused(.malformedJWS), "spare bits that are not zero")
        #expect(outcome(jws: parts[0] + "." + parts[1] + "." + parts[2].dropLast(2)) == .refused(.badSignature), "a short signature (63 bytes)")
        #expect(outcome(jws: parts[0] + "." + parts[1] + ".") == .refused(.badSignature))
        #expect(outcome(#"{"signedPayload":"\#(jws)","signedPayload":"x"}"#) == .refused(.malformedBody), "a repeated key")
        #expect(outcome(String(repeating: "[", count: 20_000)) == .refused(.malformedBody))
        // A header whose x5c entries are too long, or not base64.
        let header: JSONValue = ["alg": "ES256", "x5c": [.string(String(repeating: "A", count: RealtimeRequestVerifier.maxCertificateLength + 4)), "AA==", "AA=="]]
        #expect(outcome(jws: Base64URL.encode(header.compactBytes) + "." + parts[1] + "." + parts[2]) == .refused(.untrustedChain))
        let notBase64: JSONValue = ["alg": "ES256", "x5c": ["***", "***", "***"]]
        #expect(outcome(jws: Base64URL.encode(notBase64.compactBytes) + "." + parts[1] + "." + parts[2]) == .refused(.untrustedChain))
        // Trusting Apple's root instead of the test root: the same request leads nowhere.
        let apple = RealtimeResponder(snapshot: RealtimeFixtures.snapshot(), configuration: .init(appAppleId: RealtimeFixtures.appAppleId, offerSigner: nil))
        #expect(apple.respond(to: Array(valid.utf8), receivedAt: RealtimeFixtures.now).outcome == .refused(.untrustedChain))
        let unreadable = RealtimeResponder(snapshot: RealtimeFixtures.snapshot(), configuration: .init(trustedRoots: [[0x30, 0x00]], appAppleId: 1, offerSigner: nil))
        #expect(unreadable.configurationProblem != nil)
        #expect(unreadable.respond(to: Array(valid.utf8), receivedAt: RealtimeFixtures.now).outcome == .refused(.untrustedChain))
    }

    /// Any single-byte change to a valid body, and any cut, is refused: never a crash, never an
    /// answer.
    @Test func mutatedBodiesNeverCrash() throws {
        let fixtures = try RealtimeFixtures(apple: false)
        let responder = try fixtures.responder()
        let body = try fixtures.body("com.example.parla.plus.yearly--fr-FR")
        var generator = SystemRandomNumberGenerator()
        for round in 0..<400 {
            var mutated = body
            let index = Int.random(in: 0..<mutated.count, using: &generator)
            if round % 4 == 0 {
                mutated.removeSubrange(index...)
            } else {
                mutated[index] = UInt8.random(in: 0...255, using: &generator)
            }
            let reply = responder.respond(to: mutated, receivedAt: RealtimeFixtures.now)
            // Strict base64url and a signature over both parts leave no byte to change unnoticed.
            if case .answered = reply.outcome { #expect(mutated == body) }
        }
    }
}

@Suite struct AppleRootCATests {
    /// The embedded root is the certificate Apple publishes, byte for byte.
    @Test func appleRootCAG3HasApplesFingerprint() {
        #expect(Digest.sha256Hex(RealtimeResponder.Configuration.appleRootCAG3).uppercased()
            == "63343ABFB89A6A03EBB57E9B3F5FA7BE7C4F5C756F3017B3A8C488C3653E9179")
        #expect(RealtimeRequestVerifier(trustedRoots: [RealtimeResponder.Configuration.appleRootCAG3]) != nil)
        #expect(RealtimeRequestVerifier(trustedRoots: []) == nil)
        // A P-384 key: not one an ES256 signature can be checked with.
        #expect(throws: ES256.Failure.self) { try ES256.PublicKey(certificate: RealtimeResponder.Configuration.appleRootCAG3) }
    }
}

extension RealtimeResponderTests {
    /// The fuzzer's seeds (Fuzz/Seeds/realtime) are the generator's bodies for the arguments its
    /// harness trusts (`--now 1764100000000`, the default seed): answered or refused as named.
    @Test func theFuzzSeedsAreTheGeneratorsBodies() throws {
        let fixtures = try RealtimeFixtures(apple: false)
        let seeds = RealtimeFixtures.packageRoot.appendingPathComponent("Fuzz/Seeds/realtime")
        let names = try FileManager.default.contentsOfDirectory(atPath: seeds.path).filter { $0.hasSuffix(".json") }
        #expect(names.count >= 10)
        for name in names {
            let seed = Array(try Data(contentsOf: seeds.appendingPathComponent(name)))
            #expect(seed == (try fixtures.body(String(name.dropLast(5)))), "\(name) differs from the generator's")
        }
    }
}

extension RealtimeResponderTests {
    /// One responder, many threads at once: the same answers as one at a time (the trust store,
    /// the keys and the matchers are shared and never changed).
    @Test func concurrentRequestsGetTheSameAnswers() throws {
        let fixtures = try RealtimeFixtures(apple: false)
        let responder = try fixtures.responder()
        let names = ["com.example.parla.plus.yearly--de-DE", "com.example.parla.plus.yearly--fr-FR", "bad-signature", "unknown-product"]
        let bodies = try names.map { try fixtures.body($0) }
        let expected = bodies.map { responder.respond(to: $0, receivedAt: RealtimeFixtures.now) }
        final class Tally: @unchecked Sendable {
            // @unchecked: `same` is read and written under `lock` only.
            let lock = NSLock()
            var same: [Bool] = []
        }
        let tally = Tally()
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            let reply = responder.respond(to: bodies[index % bodies.count], receivedAt: RealtimeFixtures.now)
            let wanted = expected[index % bodies.count]
            tally.lock.withLock { tally.same.append(reply.outcome == wanted.outcome && reply.body == wanted.body) }
        }
        #expect(tally.lock.withLock { tally.same.count == 200 && tally.same.allSatisfy { $0 } })
    }
}

extension RealtimeResponderTests {
    /// A chain that verified once is kept with the times it is valid at: the same x5c at a time
    /// outside them is checked again, and refused as the first check would.
    @Test func aKeptChainIsValidOnlyWhenItsCertificatesAre() throws {
        let fixtures = try RealtimeFixtures(apple: false)
        let responder = try fixtures.responder()
        let valid = try fixtures.body("com.example.parla.plus.yearly--fr-FR")
        let undated = try fixtures.body("payload-missing-signedDate")
        let later = Date(timeIntervalSince1970: 2_840_000_000)  // 2059
        let earlier = Date(timeIntervalSince1970: 946_684_800)  // 2000
        for _ in 0..<2 {
            #expect(responder.respond(to: valid, receivedAt: RealtimeFixtures.now).outcome == .answered(.message))
            #expect(responder.respond(to: undated, receivedAt: RealtimeFixtures.now).outcome == .refused(.malformedPayload))
            #expect(responder.respond(to: undated, receivedAt: later).outcome == .refused(.certificateExpired))
            #expect(responder.respond(to: undated, receivedAt: earlier).outcome == .refused(.certificateExpired))
        }
    }
}
