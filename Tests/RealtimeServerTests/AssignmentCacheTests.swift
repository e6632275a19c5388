@testable import ExperimentStore
@testable import RealtimeServer
import Testing

/// The arms kept in the process: what is answered from them, for how long, within what bound,
/// under concurrent use.
@Suite struct AssignmentCacheTests {
    static let key = try! SubjectKey(bytes: Array(repeating: 0x3C, count: 32))

    static func subject(_ number: Int) -> SubjectHash {
        key.hash(originalTransactionId: "\(2_000_000_000_000_000 + number)")
    }

    @Test func answersTheArmKeptForThatExperimentAndSubscriberOnly() {
        let cache = AssignmentCache(capacity: 100, validityMilliseconds: 1_000)
        #expect(cache.arm(experiment: "a=1,b=1", subject: Self.subject(1), at: 0) == nil)
        cache.keep("a", experiment: "a=1,b=1", subject: Self.subject(1), at: 0)
        #expect(cache.arm(experiment: "a=1,b=1", subject: Self.subject(1), at: 10) == "a")
        #expect(cache.arm(experiment: "a=1,b=2", subject: Self.subject(1), at: 10) == nil)
        #expect(cache.arm(experiment: "a=1,b=1", subject: Self.subject(2), at: 10) == nil)
        // Another experiment of the same subscriber is another entry.
        cache.keep("b", experiment: "a=1,b=2", subject: Self.subject(1), at: 20)
        #expect(cache.arm(experiment: "a=1,b=1", subject: Self.subject(1), at: 30) == "a")
        #expect(cache.arm(experiment: "a=1,b=2", subject: Self.subject(1), at: 30) == "b")
        #expect(cache.count == 2)
        cache.forget(experiment: "a=1,b=1", subject: Self.subject(1))
        #expect(cache.arm(experiment: "a=1,b=1", subject: Self.subject(1), at: 40) == nil)
        #expect(cache.arm(experiment: "a=1,b=2", subject: Self.subject(1), at: 40) == "b")
        #expect(cache.count == 1)
    }

    /// Half of `--keep` after its last use, an entry is no longer answered from, and retention trims it.
    @Test func anEntryUnusedForHalfTheKeepIsNotAnsweredAndIsTrimmed() {
        let cache = AssignmentCache(keepMilliseconds: 2_000)
        #expect(cache.validityMilliseconds == 1_000)
        cache.keep("a", experiment: "e", subject: Self.subject(1), at: 0)
        // Each use counts from then on.
        #expect(cache.arm(experiment: "e", subject: Self.subject(1), at: 999) == "a")
        #expect(cache.arm(experiment: "e", subject: Self.subject(1), at: 1_998) == "a")
        #expect(cache.arm(experiment: "e", subject: Self.subject(1), at: 2_998) == nil)
        // Kept again (the store answered): answered again.
        cache.keep("a", experiment: "e", subject: Self.subject(1), at: 3_000)
        cache.keep("b", experiment: "e", subject: Self.subject(2), at: 3_500)
        #expect(cache.trim(at: 3_999) == 0)
        #expect(cache.trim(at: 4_000) == 1)
        #expect(cache.arm(experiment: "e", subject: Self.subject(1), at: 4_000) == nil)
        #expect(cache.arm(experiment: "e", subject: Self.subject(2), at: 4_000) == "b")
        #expect(cache.count == 1)
        // A clock set back does not make an entry older.
        #expect(cache.arm(experiment: "e", subject: Self.subject(2), at: 100) == "b")
        #expect(cache.trim(at: 4_999) == 0)
    }

    /// At most `capacity` entries: when the current generation is full, the previous one is
    /// dropped whole, and an entry used since it was kept lives on in the current one.
    @Test func holdsAtMostItsCapacityAndKeepsWhatWasUsedLately() {
        let cache = AssignmentCache(capacity: 8, validityMilliseconds: 1_000_000)
        for number in 0..<4 { cache.keep("a", experiment: "e", subject: Self.subject(number), at: Int64(number)) }
        // The first generation is full and now the previous one: all four still answer.
        #expect(cache.count == 4)
        #expect(cache.arm(experiment: "e", subject: Self.subject(0), at: 10) == "a")
        for number in 4..<7 { cache.keep("b", experiment: "e", subject: Self.subject(number), at: Int64(number)) }
        // Subscriber 0 was used and moved to the current generation, which 4, 5 and 6 then
        // filled: 1, 2 and 3, unused, went with the previous one.
        #expect(cache.count == 4)
        #expect(cache.arm(experiment: "e", subject: Self.subject(0), at: 20) == "a")
        for number in 1..<4 { #expect(cache.arm(experiment: "e", subject: Self.subject(number), at: 20) == nil, "\(number)") }
        for number in 4..<7 { #expect(cache.arm(experiment: "e", subject: Self.subject(number), at: 20) == "b", "\(number)") }
        // However many come, never more than 8, and the latest 4 are always there.
        for number in 7..<1_000 {
            cache.keep(number % 2 == 0 ? "a" : "b", experiment: "e", subject: Self.subject(number), at: Int64(number))
            #expect(cache.count <= 8)
        }
        for number in 996..<1_000 {
            #expect(cache.arm(experiment: "e", subject: Self.subject(number), at: 2_000) == (number % 2 == 0 ? "a" : "b"))
        }
        #expect(AssignmentCache(capacity: 1, validityMilliseconds: 1).capacity == 2)
        #expect(AssignmentCache(validityMilliseconds: 1).capacity == AssignmentCache.defaultCapacity)
    }

    /// The names (experiments and arms) are bounded too: past the bound everything is cleared
    /// and the cache starts again with the entry that did not fit.
    @Test func tooManyExperimentsStartTheCacheAgain() {
        let cache = AssignmentCache(capacity: 100_000, validityMilliseconds: 1_000)
        // Each experiment and its arm are two names.
        let experiments = AssignmentCache.maxNameCount / 2
        for number in 0..<experiments {
            cache.keep("arm-\(number)", experiment: "experiment-\(number)", subject: Self.subject(1), at: 0)
        }
        #expect(cache.count == experiments)
        cache.keep("a", experiment: "one too many", subject: Self.subject(2), at: 0)
        #expect(cache.count == 1)
        #expect(cache.arm(experiment: "one too many", subject: Self.subject(2), at: 1) == "a")
        #expect(cache.arm(experiment: "experiment-0", subject: Self.subject(1), at: 1) == nil)
    }

    /// A subscriber hash that is not SubjectKey's (64 hex digits) is never kept.
    @Test func aHashThatIsNotHexIsNotKept() {
        let cache = AssignmentCache(capacity: 10, validityMilliseconds: 1_000)
        let odd = SubjectHash(hex: String(repeating: "g", count: 64))
        cache.keep("a", experiment: "e", subject: odd, at: 0)
        #expect(cache.count == 0)
        #expect(AssignmentCache.words(SubjectHash(hex: "ab")) == nil)
        let words = AssignmentCache.words(SubjectHash(hex: "0123456789abcdef" + "fedcba9876543210" + String(repeating: "0", count: 31) + "1"))
        #expect(words.map { [$0.0, $0.1, $0.2, $0.3] } == [0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210, 0, 1])
    }

    /// Many tasks keeping, reading, forgetting and trimming at once: every arm answered is the
    /// one kept for that key, and the bound holds throughout.
    @Test func concurrentUseAnswersOnlyWhatWasKeptWithinTheBound() async {
        let cache = AssignmentCache(capacity: 256, validityMilliseconds: 1_000_000)
        @Sendable func arm(_ experiment: Int, _ subject: Int) -> String { "arm-\((experiment * 7 + subject) % 3)" }
        let subjects = (0..<300).map(Self.subject)
        let wrong = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for step in 0..<3_000 {
                        let experiment = (worker + step) % 2
                        let number = (worker * 131 + step * 17) % subjects.count
                        let name = "experiment-\(experiment)"
                        switch step % 10 {
                        case 0: cache.forget(experiment: name, subject: subjects[number])
                        case 1 where step % 500 == 1: cache.trim(at: Int64(step))
                        case 2, 3, 4: cache.keep(arm(experiment, number), experiment: name, subject: subjects[number], at: Int64(step))
                        default:
                            if let answered = cache.arm(experiment: name, subject: subjects[number], at: Int64(step)),
                                answered != arm(experiment, number)
                            {
                                wrong += 1
                            }
                        }
                        if cache.count > 256 { wrong += 1 }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
        #expect(cache.count <= 256)
    }
}
