import Bundle
import Foundation
import Model

/// Answers Apple's realtime requests from a snapshot, without any HTTP: a server hands it the
/// body of each `POST` and sends back the reply's status and bytes (docs/realtime.md,
/// "Answering Apple: the request handling library").
///
/// `respond` verifies the request (`RealtimeRequestVerifier`), checks that it is for this app and
/// environment and was signed just now, matches `userLocale`, chooses the message
/// (`AnswerChooser`), signs an offer (`OfferSigner`) and encodes Apple's `RealtimeResponseBody`.
/// Its reply depends on the body, the time and the configuration alone: any number of threads
/// and instances may call it at once. The only state it keeps is the verifier's memory of chains
/// that verified, which changes how fast a reply comes, never what it is.
public struct RealtimeResponder: Sendable {
    public struct Configuration: Sendable {
        /// DER bytes of the trusted root certificates (default: Apple Root CA - G3).
        public var trustedRoots: [[UInt8]]
        /// The app's Apple ID; nil only allowed for a sandbox snapshot (as Apple's libraries allow).
        /// When given, sandbox requests are checked against it too (Apple's libraries check it in
        /// production only).
        public var appAppleId: Int64?
        /// How old (and how far in the future) `signedDate` may be, in seconds.
        public var maxRequestAge: Double
        public var maxClockSkew: Double
        /// For promotional offers; nil: offer messages are skipped as unusable.
        public var offerSigner: OfferSigner?

        public init(
            trustedRoots: [[UInt8]] = [appleRootCAG3], appAppleId: Int64?, maxRequestAge: Double = 300,
            maxClockSkew: Double = 60, offerSigner: OfferSigner?
        ) {
            self.trustedRoots = trustedRoots
            self.appAppleId = appAppleId
            self.maxRequestAge = maxRequestAge
            self.maxClockSkew = maxClockSkew
            self.offerSigner = offerSigner
        }
    }

    /// The largest body read: a request is about 4 KB.
    public static let maxBodySize = 32 << 10

    public let snapshot: RealtimeSnapshot
    public let configuration: Configuration
    /// Nil when no trusted root can be read: every request is then refused as untrusted
    /// (`configurationProblem` says why).
    private let verifier: RealtimeRequestVerifier?
    private let environmentName: String
    /// Each product with its locale matcher, made once: a request then parses only its own
    /// `userLocale`, not every locale of the product.
    private let products: [String: (product: RealtimeSnapshot.Product, matcher: LocaleMatcher)]

    public init(snapshot: RealtimeSnapshot, configuration: Configuration) {
        self.snapshot = snapshot
        self.configuration = configuration
        verifier = RealtimeRequestVerifier(trustedRoots: configuration.trustedRoots)
        environmentName = DecodedRealtimeRequest.name(of: snapshot.environment)
        products = Dictionary(
            snapshot.products.map { ($0.id, (product: $0, matcher: LocaleMatcher(locales: $0.locales.map(\.locale)))) },
            uniquingKeysWith: { first, _ in first })
    }

    /// What makes this responder refuse every request, for a server to say at start and exit:
    /// no readable trusted root, or a production snapshot without the app's Apple ID (every
    /// request would be refused as `wrong-app`). Nil when it can answer.
    public var configurationProblem: String? {
        if verifier == nil { return "no trusted root certificate could be read (each must be one DER X.509 certificate)" }
        if snapshot.environment == .production, configuration.appAppleId == nil {
            return "a production snapshot needs the app's Apple ID: give it with --app-apple-id ID (msgc realtime serve) or appAppleId (the responder's configuration), the number App Store Connect shows as Apple ID under App Information; Apple's requests name it, and a request for another app must be refused"
        }
        return nil
    }

    /// Whether some request could get an answer: a product has a locale with a message this
    /// configuration can send (an offer needs the key).
    public var answersSomething: Bool {
        snapshot.answersSomething(excluding: configuration.offerSigner == nil ? [.promotionalOffer] : [])
    }

    /// Thread-safe: verify the body, match, choose, sign, encode. Never throws, never waits on
    /// I/O (the one lock, around the chains kept, is held for a dictionary look-up).
    public func respond(to body: [UInt8], receivedAt: Date) -> RealtimeReply {
        switch verify(body: body, receivedAt: receivedAt) {
        case .refused(let reply): reply
        case .verified(let request): answer(request, at: receivedAt)
        }
    }

    /// A request that passed every check, or the reply that refuses it.
    public enum Verification: Sendable {
        case verified(DecodedRealtimeRequest)
        case refused(RealtimeReply)
    }

    /// The first half of `respond`: the body verified and checked for this app, environment and
    /// time. A caller that settles something about the request before it is answered (a server's
    /// sticky arms) then calls `answer(_:at:preferredArm:)`.
    public func verify(body: [UInt8], receivedAt: Date) -> Verification {
        guard body.count <= Self.maxBodySize else { return .refused(.refused(.bodyTooLarge)) }
        guard let document = try? JSONDocument.parse(body), case .object = document.value,
            case .string(let signedPayload)? = document.member("signedPayload")?.value
        else { return .refused(.refused(.malformedBody)) }
        guard let verifier else { return .refused(.refused(.untrustedChain)) }
        let request: DecodedRealtimeRequest
        switch verifier.verify(signedPayload: signedPayload, now: receivedAt) {
        case .failure(let refusal): return .refused(.refused(refusal))
        case .success(let verified): request = verified
        }
        if let refusal = refusal(of: request, receivedAt: receivedAt) {
            // The payload's signature verified, so what it names is Apple's word: the log can say
            // which request of which app or time was refused.
            var reply = RealtimeReply.refused(refusal)
            reply.requestIdentifier = request.requestIdentifier
            reply.productId = request.productId
            reply.userLocale = request.userLocale
            return .refused(reply)
        }
        return .verified(request)
    }

    /// Apple's checks of the payload (the app in production, the environment), then msgc's own:
    /// the app in sandbox too when it is configured, and the age of `signedDate`.
    func refusal(of request: DecodedRealtimeRequest, receivedAt: Date) -> RealtimeRefusal? {
        if snapshot.environment == .production || configuration.appAppleId != nil,
            request.appAppleId != configuration.appAppleId
        {
            return .wrongApp
        }
        if request.environment != environmentName { return .wrongEnvironment }
        let age = receivedAt.timeIntervalSince1970 - Double(request.signedDate) / 1000
        if age > configuration.maxRequestAge { return .stale }
        if -age > configuration.maxClockSkew { return .future }
        return nil
    }

    /// The chosen message in Apple's shape, or `unanswered`, for a request `verify` passed.
    /// `preferredArm`: the message key of the subscriber's settled arm of a weighted product,
    /// answered when it is usable at this request (`AnswerChooser`'s `preferring`); the reply's
    /// `messageKey` says whether it was.
    public func answer(_ request: DecodedRealtimeRequest, at now: Date, preferredArm: String? = nil) -> RealtimeReply {
        var reply = RealtimeReply(
            status: RealtimeReply.unansweredStatus, body: [], outcome: .unanswered, requestIdentifier: request.requestIdentifier,
            productId: request.productId, userLocale: request.userLocale)
        guard let (product, matcher) = products[request.productId] else {
            reply.unansweredReason = .unknownProduct
            return reply
        }
        guard let matched = matcher.match(request.userLocale), let locale = product.locale(matched) else {
            reply.unansweredReason = .noLocale
            return reply
        }
        reply.locale = locale.locale
        // Every return below without an answer is for want of a usable message.
        reply.unansweredReason = .nothingUsable
        let excluded: Set<RealtimeSnapshot.Answer.Kind> = configuration.offerSigner == nil ? [.promotionalOffer] : []
        guard let chosen = AnswerChooser.choose(
                for: product, in: locale, originalTransactionId: request.originalTransactionId, excluding: excluded,
                preferring: preferredArm)
        else { return reply }
        let member: JSONValue
        switch chosen.kind {
        case .message:
            member = ["messageIdentifier": .string(chosen.identifier)]
        case .alternateProduct:
            guard let alternate = chosen.productId else { return reply }
            var alternateProduct: [String: JSONValue] = ["messageIdentifier": .string(chosen.identifier), "productId": .string(alternate)]
            if let plan = chosen.billingPlanType { alternateProduct["billingPlanType"] = .string(plan) }
            member = .object(alternateProduct)
        case .promotionalOffer:
            guard let offer = chosen.offerIdentifier,
                let signature = configuration.offerSigner?.signature(
                    productId: request.productId, offerIdentifier: offer, transactionId: request.originalTransactionId, issuedAt: now)
            else { return reply }
            member = ["messageIdentifier": .string(chosen.identifier), "promotionalOfferSignatureV2": .string(signature)]
        }
        reply.status = 200
        reply.unansweredReason = nil
        reply.body = JSONValue.object([chosen.kind.rawValue: member]).compactBytes
        reply.outcome = .answered(chosen.kind)
        reply.messageKey = chosen.key
        reply.messageIdentifier = chosen.identifier
        return reply
    }
}
