import Bundle
import Foundation
import Model

/// Reads the default message Apple serves for products and locales, one Get Default Message
/// each (paced as every request): `msgc state fetch --defaults` records them, `msgc prune` keeps
/// every message they name and deletes the ones the bundle no longer configures.
///
/// Apple's 404 `DefaultMessageNotFoundError` (4040020) is the one answer that means "no default
/// there". Anything else is not an answer: a 404 without that code (Apple answers a bare 404 to an
/// account without access), a 400 (`InvalidLocaleError`, `InvalidProductIdError`: Apple may still
/// serve a default there that it cannot read back now), a 5xx after the client's retries, a 200
/// without a UUID. The read stops, so nothing is deleted, and nothing recorded, on a guess.
enum DefaultReader {
    typealias Pair = PrunePlan.Pair

    static func path(_ pair: Pair) -> String {
        "/inApps/v1/messaging/default/\(Applier.segment(pair.product))/\(Applier.segment(pair.locale))"
    }

    /// Every pair in order, with the message Apple serves there (nil: none).
    static func read(_ client: AppleClient, pairs: [Pair]) throws(AppleClient.Failure) -> [Pair: String?] {
        var served: [Pair: String?] = [:]
        for pair in pairs.sorted() {
            let response = try client.send(.getDefault, method: "GET", path: path(pair))
            switch response.status {
            case 200:
                // Read as Apple's libraries read it: members it does not name are ignored.
                let answer = try? JSONCursor.parse(Array(response.body), file: "Get Default Message", reading: .lenient, naming: .path)
                guard let identifier = try? answer?.optionalString("messageIdentifier"), UUIDText.parse(identifier) != nil else {
                    throw .unavailable("Get Default Message for \(pair.name) answered without a message identifier")
                }
                served[pair] = identifier.lowercased()
            case 404 where response.appleError.code == 4040020:
                served[pair] = .some(nil)
            default:
                throw .unusableAnswer("Get Default Message for \(pair.name) was refused: \(Applier.refusal(response)); only Apple's 404 DefaultMessageNotFoundError (4040020) says there is none, so nothing was changed")
            }
        }
        return served
    }
}
