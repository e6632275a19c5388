import Foundation

extension BundleDiff {
    /// One thing a prune after the new release would delete.
    public struct Prunable: Sendable, Equatable {
        public enum Kind: String, Sendable { case defaultConfiguration = "default", message, image }
        public var kind: Kind
        /// A message or image identifier; for a default, `PRODUCT/LOCALE`.
        public var identifier: String
        /// What the old bundle used it for: `PRODUCT/KEY in LOCALE`, an image's path and size.
        public var what: String
    }

    /// The plan `msgc prune NEW --previous OLD` works out (`PrunePlan`), with Apple as it will be
    /// once the new bundle is applied and every upload approved: what it would delete, and what
    /// it keeps although the new bundle does not use it (what earlier bundles shipped for a
    /// locale the new one does not ship while its sources keep it).
    static func prunePlan(old: BundleContents, oldPath: String, new: BundleContents) -> PrunePlan {
        PrunePlan.make(live: new, earlier: [(oldPath, old)], apple: .assumed(live: new, earlier: [old]))
    }

    static func prunable(_ plan: PrunePlan) -> [Prunable] {
        plan.deletions.map { deletion in
            let kind: Prunable.Kind = switch deletion.kind {
            case .defaultConfiguration: .defaultConfiguration
            case .message: .message
            case .image: .image
            }
            return Prunable(kind: kind, identifier: deletion.identifier, what: deletion.what)
        }
    }
}
