import Model

/// What a project's messages lead the XLIFF reader to expect in each locale's file: the unit id
/// of every message field, so that a unit that is a message's field is told from one that is
/// none's.
///
/// Ids are told apart by their bytes, as the file wrote them: `String`'s `==` takes
/// canonically equivalent spellings (`é` as one scalar or two) for one id, and a unit whose id
/// is spelled otherwise than the message's is not that field's unit.
public struct ExpectedUnits: Sendable, Equatable {
    /// Each id's place among the ids given, a repeat keeping its first place.
    private let places: [ID: Int]

    public init(ids: some Sequence<String>) {
        var places: [ID: Int] = [:]
        for id in ids where places[ID(id)] == nil { places[ID(id)] = places.count }
        self.places = places
    }

    /// How many different ids there are.
    public var count: Int { places.count }

    public func contains(_ id: String) -> Bool {
        places[ID(id)] != nil
    }

    /// Where `id` is among the ids (0 up to `count`), if it is one of them.
    public func index(of id: String) -> Int? {
        places[ID(id)]
    }

    /// An id, equal to another only with the same bytes.
    private struct ID: Hashable, Sendable {
        let text: String

        init(_ text: String) { self.text = text }

        static func == (lhs: ID, rhs: ID) -> Bool { UTF8Bytes.areSame(lhs.text, rhs.text) }

        func hash(into hasher: inout Hasher) {
            var text = text
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }
}
