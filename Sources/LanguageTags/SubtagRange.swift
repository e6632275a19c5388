/// A registry record whose `Subtag` is a range such as `qaa..qtz`, kept unexpanded.
///
/// A subtag is in the range when it has the bounds' length and sorts between them, which for
/// letters-only subtags is exactly the set the registry means (RFC 5646 section 3.1.1).
struct SubtagRange: Sendable {
    var type: SubtagType
    /// Lower-case bounds, inclusive.
    var lower: String
    var upper: String
    var isPrivateUse: Bool

    /// Whether the lower-case `key` lies in the range.
    func contains(_ key: String) -> Bool {
        key.utf8.count == lower.utf8.count && lower <= key && key <= upper
    }
}
