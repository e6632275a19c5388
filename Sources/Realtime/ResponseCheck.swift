import Bundle
import Diagnostics
import Foundation
import Model

/// Judges a realtime server's answer as Apple would read it, against a snapshot: for the
/// request's product and locale (Apple's `productId` and `userLocale`).
///
/// Apple's `RealtimeResponseBody` has exactly one of `message` `{messageIdentifier}`,
/// `alternateProduct` `{messageIdentifier, productId, billingPlanType?}` and
/// `promotionalOffer` `{messageIdentifier, promotionalOfferSignatureV2 | promotionalOfferSignatureV1}`
/// (`advancedCommerceInfo` is for Advanced Commerce apps only, which msgc does not serve).
/// The message must be one the snapshot lists for the product in the locale that answers
/// `userLocale`, carried in the member its type needs, without an image for the two offers;
/// the alternate product must be the one the message offers, in the same group.
public enum ResponseCheck {
    /// What the check needs besides the answer.
    public struct Request: Sendable {
        public var product: String
        public var userLocale: String
        public init(product: String, userLocale: String) {
            self.product = product
            self.userLocale = userLocale
        }
    }

    /// The findings for `bytes`, the answer in the file `path`. Empty: Apple shows the message.
    public static func check(_ bytes: [UInt8], path: String, snapshot: RealtimeSnapshot, request: Request) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.unicodeScalars) }
        func keyLocation(_ key: String, of value: JSONCursor, path: String) -> SourceLocation {
            Self.keyLocation(key, of: value.node, path: path, lines: lines)
        }
        if bytes.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
            return [RealtimeDiagnostics.invalidResponse.finding(
                "the answer is empty, not a JSON object", at: SourceLocation(path: path, line: 1, column: 1),
                fixIts: [FixIt("if the server answered 404 with nothing, check that with --no-answer instead of a RESPONSE")])]
        }
        // Read strictly and named by quoted paths ('alternateProduct.productId'): `null` is a
        // value Apple cannot use where it needs a string.
        let root: JSONCursor
        do {
            root = try JSONCursor.parse(bytes, file: path, reading: .strict, naming: .quotedPath, syntaxPrefix: "the answer is not valid JSON: ")
        } catch {
            return [RealtimeDiagnostics.invalidResponse.finding(error.message, at: error.location)]
        }
        guard case .object = root.node.value else {
            return [RealtimeDiagnostics.invalidResponse.finding("the answer must be a JSON object, not \(root.kindName)", at: at(root))]
        }
        let members = root.members
        let answerKeys = RealtimeSnapshot.Answer.Kind.allCases.map(\.rawValue)
        let hasAnswer = members.contains { answerKeys.contains($0.key) }
        // A top-level messageIdentifier without an answer is said by the finding that there is none.
        for (key, value) in members where !answerKeys.contains(key) && key != "advancedCommerceInfo" && (hasAnswer || key != "messageIdentifier") {
            findings.append(RealtimeDiagnostics.unknownResponseMember.finding(
                "Apple's answer has no member '\(key)'; Apple ignores it", at: keyLocation(key, of: value, path: path)))
        }
        let answers = members.filter { answerKeys.contains($0.key) }
        guard answers.count == 1, let (memberName, body) = answers.first, let kind = RealtimeSnapshot.Answer.Kind(rawValue: memberName) else {
            let problem = answers.isEmpty
                ? "the answer has none of message, alternateProduct and promotionalOffer" + (members.contains { $0.key == "messageIdentifier" } ? "; messageIdentifier belongs inside one of them" : "")
                : "the answer has \(answers.count) of message, alternateProduct and promotionalOffer (\(answers.map(\.key).joined(separator: ", "))); Apple takes exactly one"
            findings.append(RealtimeDiagnostics.notExactlyOneAnswer.finding(problem, at: at(root), fixIts: [FixIt("answer with exactly one: {\"message\": {\"messageIdentifier\": \"…\"}}")]))
            return findings
        }
        guard case .object = body.node.value else {
            findings.append(RealtimeDiagnostics.invalidResponse.finding(body.mismatch("an object").message, at: at(body)))
            return findings
        }
        func text(_ key: String) -> (String, JSONCursor)? {
            do {
                let node = try body.required(key)
                return (try node.string(), node)
            } catch {
                findings.append(RealtimeDiagnostics.invalidResponse.finding(error.message, at: at(error)))
                return nil
            }
        }
        guard let (identifier, identifierNode) = text("messageIdentifier") else { return findings }
        guard let product = snapshot.product(request.product) else {
            findings.append(RealtimeDiagnostics.messageNotAnswerable.finding(
                "the snapshot has no product '\(request.product)'", at: at(identifierNode)))
            return findings
        }
        guard let entry = product.answering(request.userLocale) else {
            findings.append(RealtimeDiagnostics.messageNotAnswerable.finding(
                "no locale of '\(product.id)' answers '\(request.userLocale)' (the snapshot has \(product.locales.map(\.locale).joined(separator: ", ").ifEmpty("none"))); Apple shows the default it holds instead",
                at: at(identifierNode)))
            return findings
        }
        guard let message = entry.message(identifier: identifier) else {
            findings.append(RealtimeDiagnostics.messageNotAnswerable.finding(
                notAnswerable(identifier, snapshot: snapshot, product: product.id, locale: entry.locale), at: at(identifierNode),
                fixIts: entry.defaultMessage.map { [FixIt("answer with a message the snapshot lists for \(product.id) in \(entry.locale), such as the default \($0.identifier)")] } ?? []))
            return findings
        }
        if message.kind != kind {
            findings.append(RealtimeDiagnostics.answerKindMismatch.finding(
                "'\(message.key)' is a \(message.type.rawValue) message; Apple shows it through '\(message.kind.rawValue)', not '\(memberName)'",
                at: keyLocation(memberName, of: body, path: path), fixIts: [FixIt("answer with {\"\(message.kind.rawValue)\": …}")]))
        }
        if kind != .message, !message.images.isEmpty {
            findings.append(RealtimeDiagnostics.imageOnOfferAnswer.finding(
                "'\(message.key)' shows \(message.images.count) image\(message.images.count == 1 ? "" : "s"); a '\(memberName)' answer needs a message without images",
                at: at(identifierNode)))
        }
        switch kind {
        case .message:
            break
        case .alternateProduct:
            guard let (productId, productNode) = text("productId") else { break }
            checkBillingPlan(body.member("billingPlanType"), message: message, productNode: productNode, into: &findings)
            let location = at(productNode)
            if productId == product.id {
                findings.append(RealtimeDiagnostics.alternateProductNotInGroup.finding("'\(productId)' is the request's own product; Apple offers another plan", at: location))
            } else if let target = snapshot.product(productId) {
                if product.group == nil || target.group != product.group {
                    findings.append(RealtimeDiagnostics.alternateProductNotInGroup.finding(
                        "'\(productId)' is in group \(target.group.map { "'\($0)'" } ?? "(none given)"), '\(product.id)' in \(product.group.map { "'\($0)'" } ?? "(none given)"); Apple switches only within one subscription group",
                        at: location))
                } else if message.kind == .alternateProduct, let offered = message.productId, offered != productId {
                    findings.append(RealtimeDiagnostics.alternateProductNotInGroup.finding(
                        "'\(message.key)' offers '\(offered)', but the answer offers '\(productId)'", at: location,
                        fixIts: [FixIt("answer with the product the message offers: \(offered)")]))
                }
            } else {
                findings.append(RealtimeDiagnostics.alternateProductNotInGroup.finding(
                    "'\(productId)' is not a product of the snapshot, so msgc cannot say it shares the group of '\(product.id)'", at: location))
            }
        case .promotionalOffer:
            checkSignature(body, message: message, product: product.id, path: path, memberLocation: keyLocation(memberName, of: body, path: path), into: &findings)
        }
        return findings
    }

    /// The findings for a server that answered nothing (404) to a request for `request.product`
    /// in `request.userLocale`, judged against `snapshot` read from `path`: none when the snapshot
    /// has no answer there either (no locale answers the request, or the one that does has neither
    /// a usable `realtime:` message nor a default). Whether there is an answer does not depend on
    /// the subscriber: a weighted split always picks one of its usable arms.
    public static func checkNoAnswer(path: String, snapshot: RealtimeSnapshot, request: Request) -> [Diagnostic] {
        guard let product = snapshot.product(request.product), let entry = product.answering(request.userLocale),
            let answer = AnswerChooser.choose(for: product, in: entry, originalTransactionId: "")
        else { return [] }
        let why = answer.key == entry.defaultMessage?.key && !product.realtime.contains { $0.message == answer.key }
            ? "its default '\(answer.key)'" : "'\(answer.key)' (its realtime: list)"
        return [RealtimeDiagnostics.answerExpected.finding(
            "the server answered nothing, but the snapshot answers \(product.id) in '\(request.userLocale)' with \(why), a \(answer.type.rawValue) message of locale \(entry.locale)",
            at: SourceLocation(path: path),
            fixIts: [FixIt("answer with {\"\(answer.kind.rawValue)\": {\"messageIdentifier\": \"\(answer.identifier)\"\(answer.kind == .message ? "" : ", …")}}")])]
    }

    /// Why `identifier` is not an answer for `product` in `locale`: left out, or meant for another.
    static func notAnswerable(_ identifier: String, snapshot: RealtimeSnapshot, product: String, locale: String) -> String {
        let wanted = identifier.lowercased()
        if let left = snapshot.omitted.first(where: { $0.identifier == wanted }) {
            return "message \(identifier) ('\(left.key)', \(left.product), \(left.locale)) is not answerable: \(left.reason.rawValue): \(left.detail)"
        }
        for other in snapshot.products {
            for entry in other.locales {
                if let found = entry.message(identifier: wanted) {
                    return "message \(identifier) is '\(found.key)' of \(other.id) in \(entry.locale), not of \(product) in \(locale)"
                }
            }
        }
        return "message \(identifier) is not in the \(snapshot.environment.rawValue) snapshot of \(snapshot.bundleId) (an identifier of another environment or bundle, or one Apple does not hold)"
    }

    /// `alternateProduct.billingPlanType` (API 1.5): one of Apple's values, and the one the
    /// message's source gives; absent when the source gives none.
    static func checkBillingPlan(
        _ node: JSONCursor?, message: RealtimeSnapshot.Answer, productNode: JSONCursor, into findings: inout [Diagnostic]
    ) {
        let allowed = BillingPlanType.allCases.map(\.appleValue)
        guard let node else {
            if message.kind == .alternateProduct, let expected = message.billingPlanType {
                findings.append(RealtimeDiagnostics.alternateProductNotInGroup.finding(
                    "'\(message.key)' offers its plan billed \(expected), but the answer has no billingPlanType", at: at(productNode),
                    fixIts: [FixIt("add \"billingPlanType\": \"\(expected)\" to alternateProduct")]))
            }
            return
        }
        let plan: String
        do {
            plan = try node.string()
        } catch {
            findings.append(RealtimeDiagnostics.invalidResponse.finding(error.message, at: at(error)))
            return
        }
        guard allowed.contains(plan) else {
            findings.append(RealtimeDiagnostics.invalidResponse.finding(
                "\(node.name) must be \(allowed.joined(separator: " or ")), not '\(plan)'", at: at(node)))
            return
        }
        guard message.kind == .alternateProduct, plan != message.billingPlanType else { return }
        let said = message.billingPlanType.map { "billed \($0)" } ?? "without a billingPlanType"
        findings.append(RealtimeDiagnostics.alternateProductNotInGroup.finding(
            "'\(message.key)' offers its plan \(said), but the answer says \(plan)", at: at(node),
            fixIts: [FixIt(message.billingPlanType.map { "answer with \"billingPlanType\": \"\($0)\"" } ?? "leave billingPlanType out, or add it to the message's source")]))
    }

    /// `promotionalOfferSignatureV2` (a JWS whose claims name the offer) or `promotionalOfferSignatureV1`.
    static func checkSignature(
        _ body: JSONCursor, message: RealtimeSnapshot.Answer, product: String, path: String, memberLocation: SourceLocation,
        into findings: inout [Diagnostic]
    ) {
        let rule = RealtimeDiagnostics.offerSignatureMismatch
        if let v2 = body.member("promotionalOfferSignatureV2") {
            let location = v2.location
            let jws: String
            do {
                jws = try v2.string()
            } catch {
                findings.append(RealtimeDiagnostics.invalidResponse.finding(error.message, at: location))
                return
            }
            let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3, let payload = base64URLDecoded(parts[1]),
                let claims = try? JSONCursor.parse(payload, file: path, reading: .lenient, naming: .quotedPath).object()
            else {
                findings.append(rule.finding("'promotionalOfferSignatureV2' is not a JWS (three base64url parts, claims a JSON object)", at: location.spanning(scalars: jws.unicodeScalars.count + 2)))
                return
            }
            func claim(_ key: String) -> String? { (try? claims.optionalString(key)) ?? nil }
            var wrong: [String] = []
            if claim("aud") != "promotional-offer" { wrong.append("aud is \(claim("aud").map { "'\($0)'" } ?? "missing"), not 'promotional-offer'") }
            if let offer = message.offerIdentifier, claim("offerIdentifier") != offer {
                wrong.append("offerIdentifier is \(claim("offerIdentifier").map { "'\($0)'" } ?? "missing"), not the message's offer '\(offer)'")
            }
            if claim("productId") != product { wrong.append("productId is \(claim("productId").map { "'\($0)'" } ?? "missing"), not '\(product)'") }
            if !wrong.isEmpty { findings.append(rule.finding("the offer's signature does not fit: " + wrong.joined(separator: "; "), at: location)) }
        } else if let v1 = body.member("promotionalOfferSignatureV1") {
            let location = v1.location
            guard case .object = v1.node.value else {
                findings.append(RealtimeDiagnostics.invalidResponse.finding(v1.mismatch("an object").message, at: location))
                return
            }
            let missing = ["encodedSignature", "productId", "nonce", "timestamp", "keyId", "offerIdentifier"].filter { !v1.has($0) }
            var wrong: [String] = missing.isEmpty ? [] : ["it has no \(missing.joined(separator: ", "))"]
            if let offer = try? v1.member("offerIdentifier")?.string(), let expected = message.offerIdentifier, offer != expected {
                wrong.append("offerIdentifier is '\(offer)', not the message's offer '\(expected)'")
            }
            if let named = try? v1.member("productId")?.string(), named != product { wrong.append("productId is '\(named)', not '\(product)'") }
            if !wrong.isEmpty { findings.append(rule.finding("the offer's signature does not fit: " + wrong.joined(separator: "; "), at: location)) }
        } else {
            findings.append(rule.finding(
                "a promotionalOffer answer needs promotionalOfferSignatureV2 (or V1), minted for this request", at: memberLocation,
                fixIts: [FixIt("sign the offer '\(message.offerIdentifier ?? "?")' for this request and add it as promotionalOfferSignatureV2")]))
        }
    }

    static func base64URLDecoded(_ text: Substring) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.utf8.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64).map { Array($0) }
    }

    /// Where the key of `value` is written: JSON nodes know where their values start, and the
    /// key is the last `"key"` before it on its line (else the value itself is pointed at).
    static func keyLocation(_ key: String, of value: JSONDocument.Node, path: String, lines: [[Unicode.Scalar]]) -> SourceLocation {
        let needle = Array("\"\(key)\"".unicodeScalars)
        let fallback = SourceLocation(path: path, line: value.line, column: value.column)
        guard value.line >= 1, value.line <= lines.count else { return fallback }
        let line = lines[value.line - 1]
        var start = min(value.column - 1, line.count) - needle.count
        while start >= 0 {
            if Array(line[start..<start + needle.count]) == needle {
                return SourceLocation(path: path, line: value.line, column: start + 1).spanning(scalars: needle.count)
            }
            start -= 1
        }
        return fallback
    }

    /// Where `node` is written, spanning its text where that is plain.
    static func at(_ node: JSONCursor) -> SourceLocation { node.location.spanning(scalars: node.writtenWidth) }

    /// Where the value an error is about is written, spanning its text where that is plain.
    static func at(_ error: JSONReadError) -> SourceLocation { error.width.map { error.location.spanning(scalars: $0) } ?? error.location }
}

extension String {
    fileprivate func ifEmpty(_ replacement: String) -> String { isEmpty ? replacement : self }
}
