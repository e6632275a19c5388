import Bundle
import Foundation
import Model

/// Reads the default message Apple serves for products and locales, one Get Default Message
/// each (paced as every request): `msgc state fetch --defaults` records them, `msgc prune` keeps
/// every message they name and deletes the ones the bundle no longer configures.
///
/// Apple's 404 `DefaultMessageNotFoundError` (4040020) is an answer: no default there. A 404
/// without that code is not (Apple answers a bare 404 to an account without access), nor is an
/// answer without a UUID: the read stops, so nothing is deleted on a guess.
enum DefaultReader {
    struct Pair: Hashable, Comparable, Sendable {
        var product: String
        var locale: String

        static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.product, lhs.locale) < (rhs.product, rhs.locale)
        }

        var path: String { "/inApps/v1/messaging/default/\(Applier.segment(product))/\(Applier.segment(locale))" }
        var name: String { "\(product) in \(locale)" }
    }

    /// Every pair in order, with the message Apple serves there (nil: none). A pair Apple calls
    /// invalid (400: a product or locale it does not know) has no default, and says so in `warnings`.
    static func read(_ client: AppleClient, pairs: [Pair]) throws(AppleClient.Failure) -> (served: [Pair: String?], warnings: [String]) {
        var served: [Pair: String?] = [:]
        var warnings: [String] = []
        for pair in pairs.sorted() {
            let response = try client.send(.getDefault, method: "GET", path: pair.path)
            switch response.status {
            case 200:
                guard let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
                      let identifier = object["messageIdentifier"] as? String, UUIDText.parse(identifier) != nil else {
                    throw .unavailable("Get Default Message for \(pair.name) answered without a message identifier")
                }
                served[pair] = identifier.lowercased()
            case 404 where response.appleError.code == 4040020:
                served[pair] = .some(nil)
            case 400:
                served[pair] = .some(nil)
                warnings.append("Apple refused to read the default of \(pair.name): \(Applier.refusal(response))")
            default:
                throw .unavailable("Get Default Message for \(pair.name) was refused: \(Applier.refusal(response))")
            }
        }
        return (served, warnings)
    }

    /// The product and locale of every default configuration `contents` holds.
    static func configured(_ contents: BundleContents) -> [Pair: String] {
        var result: [Pair: String] = [:]
        for entry in contents.manifest.entries where entry.operation == .configureDefault {
            guard let product = entry.product, let locale = entry.locale else { continue }
            result[Pair(product: product, locale: locale)] = contents.defaultTargets[entry.file] ?? ""
        }
        return result
    }
}
