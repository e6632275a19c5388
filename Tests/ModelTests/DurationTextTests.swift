import Model
import Testing

/// `DurationText`, the one reader of every duration option (`--max-wait`, `--shutdown-delay`,
/// `--window`, `--keep`), with each option's range.
@Suite struct DurationTextTests {
    static let day: Int64 = 86_400_000
    static let hour: Int64 = 3_600_000
    static let anything: ClosedRange<Int64> = 0...Int64.max

    /// Whole numbers with units, largest first, each once; a bare number only where it is seconds.
    @Test(arguments: [
        ("90s", .refused, 90_000), ("10m", .refused, 600_000), ("1h", .refused, hour), ("1h30m", .refused, 90 * 60_000),
        ("48h", .refused, 48 * hour), ("7d", .refused, 7 * day), ("1d12h", .refused, 36 * hour), ("2d12h", .refused, 60 * hour),
        ("1d2h3m4s", .refused, day + 2 * hour + 3 * 60_000 + 4000), ("0s", .refused, 0), ("0d", .refused, 0),
        ("90d", .refused, 90 * day), ("3650d", .refused, 3650 * day), ("007m", .refused, 420_000),
        ("45", .seconds, 45_000), ("0", .seconds, 0), ("2.5", .seconds, 2500), ("0.001", .seconds, 1), ("600", .seconds, 600_000),
        ("1h30m", .seconds, 90 * 60_000),
    ] as [(String, DurationText.BareNumber, Int64)])
    func durations(text: String, bareNumber: DurationText.BareNumber, milliseconds: Int64) {
        #expect(DurationText.milliseconds(text, in: Self.anything, bareNumber: bareNumber) == milliseconds)
    }

    @Test(arguments: [
        // A number without a unit where the option wants one.
        ("45", .refused), ("48", .refused), ("3650", .refused), ("2.5", .refused),
        // Not the grammar.
        ("", .seconds), ("h", .seconds), ("m", .refused), ("10x", .seconds), ("2w", .refused), ("10 m", .seconds), (" 10m", .seconds),
        ("10M", .refused), ("1h-", .seconds), ("-5", .seconds), ("-1h", .refused), ("+5", .seconds), ("1e9", .seconds),
        ("1.5h", .refused), ("1h30", .refused), ("30m1h", .refused), ("1h1h", .refused), ("1d1d", .refused), ("1s1m", .refused),
        ("0x10", .seconds), ("inf", .seconds), ("nan", .seconds), (".5", .seconds), ("5.", .seconds), ("1.2.3", .seconds),
        ("0.0001", .seconds), ("１h", .refused),
        // Too long, or too large to count in milliseconds.
        ("999999999999999999d", .refused), ("9999999999999999999s", .refused), ("99999999999999999", .seconds),
        (String(repeating: "0", count: 63) + "1s", .refused),
    ] as [(String, DurationText.BareNumber)])
    func refusals(text: String, bareNumber: DurationText.BareNumber) {
        #expect(DurationText.milliseconds(text, in: Self.anything, bareNumber: bareNumber) == nil)
    }

    /// Each option's range, inclusive at both ends: `--max-wait` (0 to 7d), `--shutdown-delay`
    /// (0 to 10m), `--window` (1m to 90d), `--keep` (1h to 3650d).
    @Test(arguments: [
        ("7d", 0...7 * day, true), ("7d1s", 0...7 * day, false), ("0", 0...7 * day, true),
        ("10m", 0...600_000, true), ("601", 0...600_000, false), ("11m", 0...600_000, false),
        ("1m", 60_000...90 * day, true), ("59s", 60_000...90 * day, false), ("90d", 60_000...90 * day, true), ("91d", 60_000...90 * day, false),
        ("1h", hour...3650 * day, true), ("59m", hour...3650 * day, false), ("3650d", hour...3650 * day, true), ("3651d", hour...3650 * day, false),
    ] as [(String, ClosedRange<Int64>, Bool)])
    func ranges(text: String, range: ClosedRange<Int64>, isAccepted: Bool) {
        #expect((DurationText.milliseconds(text, in: range, bareNumber: .seconds) != nil) == isAccepted)
    }

    /// One wording for every option: the option, the text, the range, the grammar, examples in
    /// the range, and seconds where the option takes them.
    @Test func refusalsAreWordedOnce() {
        #expect(throws: DurationText.Problem(description:
            "--keep '3650' is not a duration from 1h to 3650d: write whole numbers with d, h, m or s, largest first (90d, 7d, 1d12h)")) {
            try DurationText.read("3650", option: "--keep", in: Self.hour...3650 * Self.day, bareNumber: .refused)
        }
        #expect(throws: DurationText.Problem(description:
            "--window '2w' is not a duration from 1m to 90d: write whole numbers with d, h, m or s, largest first (90d, 7d, 1d12h)")) {
            try DurationText.read("2w", option: "--window", in: 60_000...90 * Self.day, bareNumber: .refused)
        }
        #expect(throws: DurationText.Problem(description:
            "--shutdown-delay '11m' is not a duration from 0s to 10m: write whole numbers with d, h, m or s, largest first (10m, 90s, 15s), or a number of seconds")) {
            try DurationText.read("11m", option: "--shutdown-delay", in: 0...600_000, bareNumber: .seconds)
        }
        #expect(throws: DurationText.Problem(description:
            "--max-wait 'soon' is not a duration from 0s to 7d: write whole numbers with d, h, m or s, largest first (7d, 1d12h, 48h), or a number of seconds")) {
            try DurationText.read("soon", option: "--max-wait", in: 0...7 * Self.day, bareNumber: .seconds)
        }
        // A long text is cut in the message, not echoed whole.
        let long = String(repeating: "9", count: 1000)
        #expect(throws: DurationText.Problem(description:
            "--window '\(long.prefix(64))…' is not a duration from 1m to 90d: write whole numbers with d, h, m or s, largest first (90d, 7d, 1d12h)")) {
            try DurationText.read(long, option: "--window", in: 60_000...90 * Self.day, bareNumber: .refused)
        }
        #expect((try? DurationText.read("48h", option: "--window", in: 60_000...90 * Self.day, bareNumber: .refused)) == 48 * Self.hour)
    }

    @Test(arguments: [
        (0, "0s"), (999, "0s"), (1000, "1s"), (60_000, "1m"), (90_000, "1m30s"), (3_600_000, "1h"), (129_600_000, "1d12h"),
        (3650 * day, "3650d"), (day + 1000, "1d1s"),
    ] as [(Int64, String)])
    func rangesAreShownInUnits(milliseconds: Int64, text: String) {
        #expect(DurationText.text(milliseconds: milliseconds) == text)
        if milliseconds % 1000 == 0 {
            #expect(DurationText.milliseconds(text, in: Self.anything, bareNumber: .refused) == milliseconds)
        }
    }
}
