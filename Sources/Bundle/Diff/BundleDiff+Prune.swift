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

    /// What the old bundle uploaded or configured that the new one does not use: what `msgc prune`
    /// would delete after the new release, as far as the bundles tell (Apple may have deleted
    /// some already, and prune keeps a message Apple still serves as a default the new bundle keeps).
    static func prunable(old: BundleContents, new: BundleContents) -> [Prunable] {
        let used = Set(new.manifest.entries.compactMap(\.identifier))
        let configured = Set(new.manifest.entries.filter { $0.operation == .configureDefault }.map { "\($0.product ?? "")/\($0.locale ?? "")" })
        var seen = Set<String>()
        var result: [Prunable] = []
        for entry in old.manifest.entries {
            switch entry.operation {
            case .configureDefault:
                let pair = "\(entry.product ?? "")/\(entry.locale ?? "")"
                guard !configured.contains(pair), seen.insert("default " + pair).inserted else { continue }
                result.append(Prunable(kind: .defaultConfiguration, identifier: pair, what: "\(entry.product ?? "") in \(entry.locale ?? "")"))
            case .uploadMessage, .uploadImage:
                guard let identifier = entry.identifier, !used.contains(identifier), seen.insert(identifier).inserted else { continue }
                let isImage = entry.operation == .uploadImage
                result.append(Prunable(
                    kind: isImage ? .image : .message, identifier: identifier,
                    what: isImage ? "\(entry.source) \(entry.imageSize?.rawValue ?? "")" : "\(entry.product ?? "")/\(entry.key ?? "") in \(entry.locale ?? "")"))
            }
        }
        let order: [Prunable.Kind: Int] = [.defaultConfiguration: 0, .message: 1, .image: 2]
        return result.sorted { (order[$0.kind]!, $0.identifier) < (order[$1.kind]!, $1.identifier) }
    }
}
