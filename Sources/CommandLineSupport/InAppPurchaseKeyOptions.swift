import ArgumentParser
import Foundation

/// The In-App Purchase key: the file App Store Connect gives, its id and the team's issuer id,
/// from options or the environment. `msgc apply` and `msgc prune` sign Apple's API tokens with
/// it; `msgc realtime serve` signs promotional offers.
public struct InAppPurchaseKeyOptions: ParsableArguments {
    public init() {}

    @Option(name: .long, help: ArgumentHelp("The In-App Purchase key (.p8) from App Store Connect (or MSGC_KEY_FILE).", valueName: "file"))
    public var keyFile: String?

    @Option(name: .long, help: ArgumentHelp("The key's id (or MSGC_KEY_ID).", valueName: "id"))
    public var keyId: String?

    @Option(name: .long, help: ArgumentHelp("The issuer id of the team's keys (or MSGC_ISSUER_ID).", valueName: "id"))
    public var issuerId: String?

    /// The key's file, id and issuer id, each from its option or else its variable; nil when
    /// none of the three is given; a usage error naming what is missing when only some are.
    public func resolved(required: Bool) throws -> (file: String, keyID: String, issuerID: String)? {
        let environment = ProcessInfo.processInfo.environment
        let given = [(keyFile, "MSGC_KEY_FILE", "--key-file"), (keyId, "MSGC_KEY_ID", "--key-id"), (issuerId, "MSGC_ISSUER_ID", "--issuer-id")]
            .map { option, variable, flag in (value: (option ?? environment[variable]).flatMap { $0.isEmpty ? nil : $0 }, variable, flag) }
        if !required && given.allSatisfy({ $0.value == nil }) { return nil }
        if let missing = given.first(where: { $0.value == nil }) {
            throw ValidationError("give \(missing.2) or set \(missing.1)")
        }
        return (given[0].value!, given[1].value!, given[2].value!)
    }
}
