import Bundle
import Foundation
import Model
import Realtime

/// libFuzzer entry point for the realtime request path: any bytes as the body of Apple's `POST`,
/// through the JSON body, the JWS's parts, its header, the certificates, the chain, the
/// signature, the payload, the choice and the offer signature (`RealtimeResponder.respond`);
/// and the same bytes straight to the payload reader and the JWS verifier, so mutations reach
/// the stages a forged signature stops before.
///
/// The responder trusts the root of scripts/realtime-requests.py's test PKI (`TestPKI`, its
/// default seed, `--now 1764100000000`), so the seeds in Fuzz/Seeds/realtime, made with those arguments, are
/// answered and their mutations explore every refusal. The offer key is a throwaway P-256 key.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRealtimeRequest(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let reply = RealtimeRequestHarness.responder.respond(to: bytes, receivedAt: RealtimeRequestHarness.now)
    switch reply.outcome {
    case .answered(let kind):
        precondition(reply.status == 200, "answered with \(reply.status)")
        guard let answer = try? JSONDocument.parse(reply.body), case .object(let members) = answer.value else {
            preconditionFailure("an answer that is not a JSON object")
        }
        precondition(members.count == 1 && members[0].key == kind.rawValue, "not exactly one answer of its kind")
    case .unanswered:
        precondition(reply.status == RealtimeReply.unansweredStatus && reply.body.isEmpty)
    case .refused(let reason):
        precondition(reply.status == reason.status && reply.body.isEmpty)
        // Only a payload whose signature verified names its request in a refusal (a wrong app
        // or environment always does; stale or future does unless a registered claim, `exp`,
        // `iat` or `nbf`, was refused before the payload was read as a request).
        let verified: Set<RealtimeRefusal> = [.wrongApp, .wrongEnvironment, .stale, .future]
        if reply.requestIdentifier != nil { precondition(verified.contains(reason)) }
        if reason == .wrongApp || reason == .wrongEnvironment { precondition(reply.requestIdentifier != nil) }
    }
    if let payload = try? JSONDocument.parse(bytes), let request = DecodedRealtimeRequest(payload: payload) {
        precondition(UUIDText.parse(request.requestIdentifier) != nil)
    }
    if let text = String(validating: bytes, as: UTF8.self) {
        _ = RealtimeRequestHarness.verifier.verify(signedPayload: text, now: RealtimeRequestHarness.now)
    }
    _ = Base64URL.decode(bytes)
    return 0
}

enum RealtimeRequestHarness {
    static let now = TestPKI.now
    static let root = TestPKI.root

    static let offerKey = Array("""
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg6smu4SDxzmE8GDpB
        45Amiwic3chAroh4iWSMPj2JZ32hRANCAARfzck/gLK4I/zin/NU84lyiwErMMGk
        TvZARAEYalp4c4h8T4vVyWvV678b50gWzS/Z6K5jSLHulPx2sRS/x4Qo
        -----END PRIVATE KEY-----

        """.utf8)

    static let verifier = RealtimeRequestVerifier(trustedRoots: [root])!

    static let responder: RealtimeResponder = {
        let yearly = "com.example.parla.plus.yearly"
        let monthly = "com.example.parla.plus.monthly"
        let text = RealtimeSnapshot.Answer(key: "winback", type: .text, identifier: "00000000-0000-5000-8000-000000000001", images: [], version: .current)
        let switchPlan = RealtimeSnapshot.Answer(
            key: "go-monthly", type: .switchPlan, identifier: "00000000-0000-5000-8000-000000000002", images: [], productId: monthly, version: .current)
        let offer = RealtimeSnapshot.Answer(
            key: "half-price", type: .promotionalOffer, identifier: "00000000-0000-5000-8000-000000000003", images: [],
            offerIdentifier: "plus.yearly.half_price", version: .current)
        let snapshot = RealtimeSnapshot(
            generatorVersion: "fuzz", bundleId: "com.example.parla", environment: .production,
            bundleDigest: "sha256:" + String(repeating: "0", count: 64), release: nil,
            products: [
                .init(id: monthly, group: "plus", choice: nil, realtime: [], locales: []),
                .init(id: yearly, group: "plus", choice: .weighted, realtime: [.init(message: "half-price", weight: 2), .init(message: "go-monthly", weight: 1)], locales: [
                    .init(locale: "en-US", defaultKey: "winback", messages: [switchPlan, offer, text]),
                    .init(locale: "fr-FR", defaultKey: "winback", messages: [text]),
                    .init(locale: "ja", defaultKey: "half-price", messages: [offer]),
                ]),
            ],
            omitted: [])
        let signer = try! OfferSigner(pem: offerKey, keyId: "FUZZKEY", issuerId: "57246542-96fe-1a63-e053-0824d011072a", bundleId: "com.example.parla")
        let responder = RealtimeResponder(
            snapshot: snapshot, configuration: .init(trustedRoots: [root], appAppleId: 1_234_567_890, offerSigner: signer))
        precondition(responder.configurationProblem == nil)
        return responder
    }()
}
