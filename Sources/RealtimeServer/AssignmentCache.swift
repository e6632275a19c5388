import ExperimentStore
import Synchronization

/// The arms the experiment store settled, kept in the process, so that a subscriber seen again
/// costs the answer path no store round trip (`StickyArms`).
///
/// **Why a kept arm stays right, with any number of servers on one store.** An assignment,
/// once a row, never changes: the first insert wins and nothing updates it, so the arm the store
/// returned (first or existing) is the arm every server's store would return, for as long as
/// the row exists. Only `--keep` deletes it, and only when no decision of that subscriber in
/// that experiment is left after its cutoff (`now - keep`). Every use of a kept arm queues a
/// decision, so an entry used within the last `keep / 2` (`validityMilliseconds`) names a row
/// that still exists, whichever server applies retention: the other half of `keep` leaves the
/// decision ample time to reach the store (seconds, or the half minute of the decision log's
/// retries). An entry not used for that long is not answered from (the store is asked again)
/// and is trimmed at each retention run (`trim`); the entry of a decision the log lost is
/// forgotten (`forget`), since that decision no longer keeps its row. Only arms the store
/// returned go in, never the hash's fallback (`hashed`).
///
/// **Bounded.** At most `capacity` entries, in two generations of `capacity / 2`: new and used
/// entries go into the current one; when it is full it becomes the previous one and the old
/// previous one is dropped whole, so what is forgotten when full is what was not used during
/// the last generation (roughly the least recently used half), at O(1) per call. A key is the
/// experiment (interned: a number) and the subscriber's 32-byte hash, a value the arm (a number)
/// and the time of its last use: 56 bytes in the table. The default, 98,304 entries (two
/// generations of 49,152, the most a table of 65,536 slots holds below Swift's maximum load),
/// is two tables of 3.7 MB; filled with 300,000 subscribers in turn, a process grew by 11.3 MB
/// (what the allocator keeps of the smaller tables a growing generation replaced included).
/// The interned names (experiments and arms, from the snapshot)
/// are bounded too: past `maxNameCount` the whole cache is cleared and starts again.
///
/// Safe under concurrency: every call takes one `Mutex` for a few hash-table operations; a
/// dropped generation is freed after the lock is released.
final class AssignmentCache: Sendable {
    static let defaultCapacity = 98_304
    static let maxNameCount = 4_096

    struct Key: Hashable {
        var experiment: UInt32
        var subject0: UInt64
        var subject1: UInt64
        var subject2: UInt64
        var subject3: UInt64
    }

    struct Entry {
        var arm: UInt32
        var lastUsedMilliseconds: Int64
    }

    private struct State {
        var current: [Key: Entry] = [:]
        var previous: [Key: Entry] = [:]
        var nameNumbers: [String: UInt32] = [:]
        var names: [String] = []

        /// The number of `name`, made now if it has none; nil when the table is full.
        mutating func number(_ name: String) -> UInt32? {
            if let number = nameNumbers[name] { return number }
            guard names.count < AssignmentCache.maxNameCount else { return nil }
            let number = UInt32(names.count)
            nameNumbers[name] = number
            names.append(name)
            return number
        }
    }

    /// The most entries kept.
    let capacity: Int
    /// How long after its last use an entry may still be answered from: half of `--keep`.
    let validityMilliseconds: Int64
    private let generationCapacity: Int
    private let state = Mutex(State())

    init(capacity: Int = AssignmentCache.defaultCapacity, validityMilliseconds: Int64) {
        generationCapacity = max(1, capacity / 2)
        self.capacity = 2 * generationCapacity
        self.validityMilliseconds = validityMilliseconds
    }

    /// The cache for a server that keeps its store's rows for `keepMilliseconds` (`--keep`).
    convenience init(keepMilliseconds: Int64, capacity: Int = AssignmentCache.defaultCapacity) {
        self.init(capacity: capacity, validityMilliseconds: keepMilliseconds / 2)
    }

    /// How many entries are kept now.
    var count: Int {
        state.withLock { $0.current.count + $0.previous.count }
    }

    /// The subscriber's kept arm in the experiment, if one was used within
    /// `validityMilliseconds` of `now`; the entry is then used at `now`.
    func arm(experiment: String, subject: SubjectHash, at now: Int64) -> String? {
        guard let subject = Self.words(subject) else { return nil }
        let validity = validityMilliseconds
        let (arm, dropped): (String?, [Key: Entry]) = state.withLock { state in
            guard let experiment = state.nameNumbers[experiment] else { return (nil, [:]) }
            let key = Key(experiment: experiment, subject: subject)
            if let index = state.current.index(forKey: key) {
                let entry = state.current.values[index]
                guard now - entry.lastUsedMilliseconds < validity else { return (nil, [:]) }
                state.current.values[index].lastUsedMilliseconds = max(entry.lastUsedMilliseconds, now)
                return (state.names[Int(entry.arm)], [:])
            }
            guard var entry = state.previous.removeValue(forKey: key) else { return (nil, [:]) }
            guard now - entry.lastUsedMilliseconds < validity else { return (nil, [:]) }
            // Used again: into the current generation, so that it outlives the previous one.
            entry.lastUsedMilliseconds = max(entry.lastUsedMilliseconds, now)
            let dropped = Self.insert(entry, key, into: &state, generationCapacity: generationCapacity)
            return (state.names[Int(entry.arm)], dropped)
        }
        _ = dropped
        return arm
    }

    /// Keeps `arm`, which the store returned, as the subscriber's arm in the experiment, used at `now`.
    func keep(_ arm: String, experiment: String, subject: SubjectHash, at now: Int64) {
        guard let subject = Self.words(subject) else { return }
        let dropped: (State?, [Key: Entry]) = state.withLock { state in
            guard let experimentNumber = state.number(experiment), let armNumber = state.number(arm) else {
                // The names are full: a snapshot has churned through thousands of experiments.
                // Start again, with this entry.
                var fresh = State()
                guard let experimentNumber = fresh.number(experiment), let armNumber = fresh.number(arm) else { return (nil, [:]) }
                fresh.current[Key(experiment: experimentNumber, subject: subject)] = Entry(arm: armNumber, lastUsedMilliseconds: now)
                swap(&state, &fresh)
                return (fresh, [:])
            }
            let key = Key(experiment: experimentNumber, subject: subject)
            state.previous.removeValue(forKey: key)
            let entry = Entry(arm: armNumber, lastUsedMilliseconds: now)
            if let index = state.current.index(forKey: key) {
                state.current.values[index] = entry
                return (nil, [:])
            }
            return (nil, Self.insert(entry, key, into: &state, generationCapacity: generationCapacity))
        }
        _ = dropped
    }

    /// Forgets the subscriber's entry in the experiment: the decision that kept its row was lost.
    func forget(experiment: String, subject: SubjectHash) {
        guard let subject = Self.words(subject) else { return }
        state.withLock { state in
            guard let experiment = state.nameNumbers[experiment] else { return }
            let key = Key(experiment: experiment, subject: subject)
            state.current.removeValue(forKey: key)
            state.previous.removeValue(forKey: key)
        }
    }

    /// Removes the entries not used within `validityMilliseconds` of `now` (run with `--keep`'s
    /// retention); returns how many.
    @discardableResult
    func trim(at now: Int64) -> Int {
        let validity = validityMilliseconds
        return state.withLock { state in
            let before = state.current.count + state.previous.count
            state.current = state.current.filter { now - $0.value.lastUsedMilliseconds < validity }
            state.previous = state.previous.filter { now - $0.value.lastUsedMilliseconds < validity }
            return before - state.current.count - state.previous.count
        }
    }

    /// Puts a new entry in the current generation; when that is full, it becomes the previous
    /// one and the old previous one is returned, to be freed outside the lock.
    private static func insert(_ entry: Entry, _ key: Key, into state: inout State, generationCapacity: Int) -> [Key: Entry] {
        state.current[key] = entry
        guard state.current.count >= generationCapacity else { return [:] }
        var dropped: [Key: Entry] = [:]
        swap(&dropped, &state.previous)
        swap(&state.previous, &state.current)
        return dropped
    }

    /// The subscriber's 32-byte hash as four words; nil for a hash that is not 64 hex digits
    /// (never one `SubjectKey` made): such a subscriber is simply not kept.
    static func words(_ subject: SubjectHash) -> (UInt64, UInt64, UInt64, UInt64)? {
        let hex = subject.hex.utf8
        guard hex.count == 64 else { return nil }
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var word: UInt64 = 0
        for (index, digit) in hex.enumerated() {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): word = word << 4 | UInt64(digit - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): word = word << 4 | UInt64(digit - UInt8(ascii: "a") + 10)
            default: return nil
            }
            guard index % 16 == 15 else { continue }
            switch index / 16 {
            case 0: words.0 = word
            case 1: words.1 = word
            case 2: words.2 = word
            default: words.3 = word
            }
            word = 0
        }
        return words
    }
}

extension AssignmentCache.Key {
    init(experiment: UInt32, subject: (UInt64, UInt64, UInt64, UInt64)) {
        self.init(experiment: experiment, subject0: subject.0, subject1: subject.1, subject2: subject.2, subject3: subject.3)
    }
}
