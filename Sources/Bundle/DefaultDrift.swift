import Diagnostics
import Model

/// Compares the defaults Apple serves (a state file fetched with `msgc state fetch --defaults`)
/// with a bundle's default configurations: a default at Apple that differs from the bundle's
/// (STA009), and one for a product and locale the bundle does not configure (STA010).
///
/// A product and locale the state does not list were not asked about, and one where Apple serves
/// none is not applied yet: neither is drift. A state file without `defaults` says nothing.
public enum DefaultDrift {
    /// One default configuration of the bundle.
    public struct Configured: Sendable {
        public var localized: LocalizedMessage
        public var identifier: String

        public init(localized: LocalizedMessage, identifier: String) {
            self.localized = localized
            self.identifier = identifier
        }
    }

    /// A stray default is reported at its product in msgc.yaml (`config`), or at msgc.yaml when
    /// the product is gone from it: where the project stopped configuring it.
    ///
    /// A default Apple serves where the product's default message waits for its translation
    /// (`waiting`, by `PRODUCT/LOCALE`) is what that locale shows until the translation comes
    /// back: it is still reported, but never as something to prune.
    public static func diagnostics(
        _ configured: [Configured], config: ProjectConfig, state: StateFile, waiting: [String: Manifest.NotShipped] = [:]
    ) -> [Diagnostic] {
        guard let defaults = state.defaults else { return [] }
        var wanted: [String: Configured] = [:]
        for entry in configured { wanted["\(entry.localized.message.product.value)/\(entry.localized.locale)"] = entry }
        var diagnostics: [Diagnostic] = []
        for held in defaults {
            guard let served = held.messageIdentifier else { continue }
            if let entry = wanted["\(held.product)/\(held.locale)"] {
                guard entry.identifier != served else { continue }
                diagnostics.append(StateDiagnostics.defaultDrift.diagnose(
                    "Apple serves message \(served) as the default of \(held.product) in \(held.locale), but this bundle configures '\(entry.localized.message.key.value)' (\(entry.identifier)) there",
                    at: entry.localized.message.location,
                    fixIts: [FixIt("apply this bundle to configure its default again; if another tool changed it at Apple, find out why first")],
                    subject: entry.localized.subject))
            } else if let entry = waiting["\(held.product)/\(held.locale)"] {
                diagnostics.append(StateDiagnostics.strayDefault.diagnose(
                    "Apple serves message \(served) as the default of \(held.product) in \(held.locale), which this bundle does not configure while '\(entry.key)' waits for its translation there (\(entry.reason.rawValue))",
                    at: config.products.first { $0.id.value == held.product }?.id.location ?? SourceLocation(path: ProjectConfig.fileName),
                    fixIts: [FixIt("leave it: it is what \(held.locale) shows until the translation comes back, and `msgc prune` keeps it; build and apply again once '\(entry.key)' is translated")]))
            } else {
                diagnostics.append(StateDiagnostics.strayDefault.diagnose(
                    "Apple serves message \(served) as the default of \(held.product) in \(held.locale), which this bundle does not configure",
                    at: config.products.first { $0.id.value == held.product }?.id.location ?? SourceLocation(path: ProjectConfig.fileName),
                    fixIts: [FixIt("`msgc prune BUNDLE --previous OLD_BUNDLE` deletes it (with --confirm), or give the product and locale a default message again")]))
            }
        }
        return diagnostics
    }

    /// The findings for the messages that ship, as `msgc coverage --state` reports them.
    public static func diagnostics(
        shipped: [LocalizedMessage], config: ProjectConfig, images: [String: [UInt8]], environment: Environment, state: StateFile,
        waiting: [String: Manifest.NotShipped] = [:]
    ) -> [Diagnostic] {
        guard state.defaults != nil, let planner = try? BundlePlanner(config: config, images: images, environment: environment) else { return [] }
        let configured = shipped.filter(\.message.isDefaultMessage).compactMap { localized in
            (try? planner.message(localized)).map { Configured(localized: localized, identifier: $0.identifier) }
        }
        return diagnostics(configured, config: config, state: state, waiting: waiting)
    }
}
