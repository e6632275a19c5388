import Bundle
import Diagnostics
import Foundation
import Model

/// Reads Apple's Get Message List and Get Image List, as Apple's own libraries read them: every
/// member optional, a missing or `null` list empty, unknown members ignored, unknown states
/// kept (never taken for approval), and an entry whose identifier is not a UUID left out with a
/// warning. The reading is the state file's (`StateFileParser`), so what `msgc state fetch`
/// writes from a valid answer is what `build --state` and `coverage --state` accept.
public enum StateReader {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        /// Why the read stopped: a 429 beyond `--max-wait` is resumable, the rest a failure.
        public var kind: CommandFailure
    }

    /// `msgc state fetch`: the state file's bytes (msgc's canonical JSON) and the warnings about
    /// entries it left out.
    /// With `defaultsOf`, also the default Apple serves for each product and locale that bundle
    /// configures (`--defaults`).
    /// The file names the environment and the app (`bundleId`) it describes, and `fetchedAt`,
    /// when the lists were read (RFC 3339, UTC; given by the caller, the one clock value).
    public static func document(
        base: APIBase, credentials: Credentials, environment: Environment, bundleId: String, fetchedAt: String, pace: Pace,
        defaultsOf bundle: BundleContents? = nil
    ) throws(Failure) -> (bytes: [UInt8], warnings: [String]) {
        let client = AppleClient(base: base, credentials: credentials, pacer: Pacer(pace.settings(environment)), backoff: 0.5 * pace.timeScale)
        var fetched = try read(client)
        if let bundle {
            do {
                let served = try DefaultReader.read(client, pairs: Array(PrunePlan.configured(bundle).keys))
                fetched.state.defaults = served.map { pair, message in
                    HeldDefault(product: pair.product, locale: pair.locale, messageIdentifier: message, location: SourceLocation(path: ""))
                }
            } catch {
                throw Failure(description: Applier.describe(error), kind: Applier.failure(error))
            }
        }
        fetched.state.environment = environment.rawValue
        fetched.state.bundleId = bundleId
        fetched.state.fetchedAt = fetchedAt
        return (fetched.state.json.canonicalBytes, fetched.warnings)
    }

    /// Both lists, and the warnings about what in them msgc does not use.
    static func read(_ client: AppleClient) throws(Failure) -> (state: StateFile, warnings: [String]) {
        do {
            let messages = try answer(client, images: false)
            let images = try answer(client, images: true)
            let (state, diagnostics) = StateFileParser.read(stateDocument(messages: messages, images: images, file: "Apple's lists"), isFile: false)
            guard let state else {
                throw Failure(
                    description: "Apple's lists are not shaped as Apple documents them: " + diagnostics.map(\.message).joined(separator: "; "),
                    kind: .io)
            }
            return (state, diagnostics.map { "Apple's lists: \($0.message)" })
        } catch let failure as Failure {
            throw failure
        } catch let error as AppleClient.Failure {
            throw Failure(description: Applier.describe(error), kind: Applier.failure(error))
        } catch {
            throw Failure(description: "\(error)", kind: .io)
        }
    }

    /// One list again, after a 409: what Apple holds of that kind now.
    static func list(_ client: AppleClient, images: Bool) throws(AppleClient.Failure) -> [HeldUpload] {
        let body = try answer(client, images: images)
        let none = JSONDocument.Node(value: .object([]), line: 1, column: 1)
        let document = stateDocument(messages: images ? none : body, images: images ? body : none, file: "Apple's list")
        guard let state = StateFileParser.read(document, isFile: false).0 else {
            throw .unavailable("\(images ? "Get Image List" : "Get Message List") answered with something that is not a list")
        }
        return images ? state.images : state.messages
    }

    /// Apple's two answers as the members of one state file, read as `build --state` reads it.
    /// Read leniently, as Apple's libraries read them, and named by paths (`messages.messageIdentifiers[3]`).
    private static func stateDocument(messages: JSONDocument.Node, images: JSONDocument.Node, file: String) -> JSONCursor {
        let root = JSONDocument.Node(value: .object([(key: "messages", value: messages), (key: "images", value: images)]), line: 1, column: 1)
        return JSONCursor(root, file: file, reading: .lenient, naming: .path)
    }

    /// The body of one list's 200 answer, read as JSON.
    private static func answer(_ client: AppleClient, images: Bool) throws(AppleClient.Failure) -> JSONDocument.Node {
        let endpoint: AppleClient.Endpoint = images ? .listImages : .listMessages
        let response = try client.send(endpoint, method: "GET", path: images ? "/inApps/v1/messaging/image/list" : "/inApps/v1/messaging/message/list")
        guard response.status == 200 else { throw .unavailable("\(endpoint.rawValue) was refused: \(Applier.refusal(response))") }
        // One JSON value, whatever it holds: the two answers are read as members of one document.
        guard let body = try? JSONDocument.parse(Array(response.body)) else {
            throw .unavailable("\(endpoint.rawValue) answered with something that is not JSON")
        }
        return body
    }
}
