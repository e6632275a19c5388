import ArgumentParser
import Bundle
import CommandLineSupport
import ExperimentStore
import Experiments
import Foundation
import Model

extension ExperimentReportFormat: ExpressibleByArgument {}

extension MsgcRealtime {
    struct Report: ServerCommand {
        static let configuration = CommandConfiguration(
            commandName: "report",
            abstract: "Report which message kept more subscribers, from the experiment store.",
            discussion: """
                Reads the decisions and notifications of the store that `msgc realtime serve --store` \
                (and `msgc realtime outcomes import`) filled, and reports per product and experiment, \
                per message, the subscribers exposed (each once, by their first exposure), what they \
                did next (stayed, cancelled, offer redeemed, switched), the save rate with its 95 % \
                interval, each message against the best, the sample-ratio check and the subscribers \
                still needed, with a verdict that is "inconclusive" unless the data say otherwise \
                (docs/experiments.md). Subscribers are read as the store's hashes: no --subject-key.

                The report's moment is --until, else the latest decision or notification it reads \
                (not the clock), so the same store content gives the same bytes; a subscriber whose \
                window has not ended by then is pending.

                Exit status: 0 the report was written, whatever its verdict; 2 an option that cannot \
                be used, a store that cannot be read, or an output that cannot be written.
                """)

        @Option(name: .long, help: ArgumentHelp("The experiment store: sqlite:PATH or postgres://… (no password in it).", valueName: "url"))
        var store: String

        @Option(name: .long, help: ArgumentHelp("Only this product's experiments.", valueName: "product"))
        var product: String?

        @Option(name: .long, help: ArgumentHelp("Only exposures and notifications from this moment on (ISO 8601 UTC: 2026-11-01 or 2026-11-01T12:00:00Z).", valueName: "date"))
        var since: String?

        @Option(name: .long, help: ArgumentHelp("The report's moment: later exposures and notifications are left out (ISO 8601 UTC; default: the latest one in the store).", valueName: "date"))
        var until: String?

        @Option(name: .long, help: ArgumentHelp("How long after a subscriber's first exposure a cancellation counts (48h, 7d, 1d12h; from 1m to 90d; default 48h).", valueName: "duration"))
        var window = "48h"

        @Option(name: .long, help: ArgumentHelp("The smallest difference in save rate worth finding, in percentage points (default 5).", valueName: "points"))
        var minimumEffect: Double = 5

        @Option(name: .long, help: ArgumentHelp("table, json, markdown or html.", valueName: "format"))
        var format: ExperimentReportFormat = .table

        @Option(name: .long, help: ArgumentHelp("Write the report to this file (atomically) instead of standard output.", valueName: "file"))
        var out: String?

        func validate() throws {
            if let since, ReportOptions.milliseconds(date: since) == nil {
                throw ValidationError("--since '\(since)' is not an ISO 8601 date: write 2026-11-01 or 2026-11-01T12:00:00Z")
            }
            if let until, ReportOptions.milliseconds(date: until) == nil {
                throw ValidationError("--until '\(until)' is not an ISO 8601 date: write 2026-11-01 or 2026-11-01T12:00:00Z")
            }
            if let since, let until, let from = ReportOptions.milliseconds(date: since), let to = ReportOptions.milliseconds(date: until), from > to {
                throw ValidationError("--since \(since) is after --until \(until)")
            }
            do { _ = try ReportOptions.windowMilliseconds(window) } catch { throw ValidationError(error.description) }
            guard minimumEffect.isFinite, minimumEffect > 0, minimumEffect <= 50 else {
                throw ValidationError("--minimum-effect \(minimumEffect) is out of range: give more than 0 and at most 50 percentage points")
            }
        }

        func execute() throws {
            let url: StoreURL
            do { url = try StoreURL(parsing: store) } catch { throw Refusal(error.description) }
            // Reading never creates a store: a SQLite path that is not there is a mistake.
            if case .sqlite(let path) = url, !FileManager.default.fileExists(atPath: path) {
                throw Refusal("the store '\(url)' does not exist")
            }
            let experimentStore: ExperimentStore
            do { experimentStore = try ExperimentStore(url: url) } catch { throw Refusal(error.description) }
            let product = product
            let since = since.flatMap(ReportOptions.milliseconds(date:)) ?? 0
            let read: (decisions: [Decision], notifications: [StoredNotification])
            do {
                read = try Blocking.run {
                    do {
                        let read = (
                            try await experimentStore.exposures(product: product, sinceMilliseconds: since),
                            try await experimentStore.events(product: product, sinceMilliseconds: since))
                        await experimentStore.close()
                        return read
                    } catch {
                        await experimentStore.close()
                        throw error
                    }
                }
            } catch let error as StoreError {
                throw Refusal("cannot read the store '\(url)': \(error)")
            }
            let input = ReportInput(decisions: read.decisions, notifications: read.notifications)
            let now = until.flatMap(ReportOptions.milliseconds(date:)) ?? ReportOptions.latest(input) ?? since
            let settings = ReportSettings(
                now: now, windowMilliseconds: (try? ReportOptions.windowMilliseconds(window)) ?? ReportSettings.defaultWindowMilliseconds,
                minimumDifference: minimumEffect / 100)
            let report = ExperimentReport.make(
                exposures: input.exposures, events: input.events, definitions: input.definitions, settings: settings)
            let text = format.render(report)
            if let out {
                do {
                    try FileOutput.write(Array(text.utf8), to: URL(fileURLWithPath: out))
                } catch {
                    throw Refusal(error.description)
                }
            } else {
                try Output.write(text, to: .standardOutput)
            }
        }
    }
}

/// The values of `msgc realtime report`'s options, and the moment it reports at.
enum ReportOptions {
    /// Milliseconds since 1970 of an ISO 8601 date (`2026-11-01`, midnight UTC) or date-time
    /// (`2026-11-01T12:00:00Z`, with a zone offset or fraction of a second if wanted; without a
    /// zone, UTC).
    static func milliseconds(date text: String) -> Int64? {
        guard text.utf8.count <= 64, text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        let withZone = text.contains("T") && !text.hasSuffix("Z") && !text.dropFirst(11).contains(where: { $0 == "+" || $0 == "-" })
            ? text + "Z" : text
        let forms: [ISO8601DateFormatter.Options] = text.contains("T")
            ? [[.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds]] : [[.withFullDate]]
        for options in forms {
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.formatOptions = options
            if let date = formatter.date(from: withZone) { return Int64((date.timeIntervalSince1970 * 1000).rounded()) }
        }
        return nil
    }

    /// `--window`: from one minute to 90 days, always with a unit (`--window 48` is no 48 hours).
    static func windowMilliseconds(_ text: String) throws(DurationText.Problem) -> Int64 {
        try DurationText.read(text, option: "--window", in: 60_000...90 * 86_400_000, bareNumber: .refused)
    }

    /// The latest exposure or event the report reads: its moment when no --until is given.
    static func latest(_ input: ReportInput) -> Int64? {
        (input.exposures.map(\.time) + input.events.map(\.signedDate)).max()
    }
}
