import Foundation
import Testing
@testable import LanguageTags

/// Checks the generated tables against the vendored registry text they were generated from.
struct SubtagRegistryTests {
    /// One record of the record-jar file, fields to values (continuation lines joined).
    typealias RawRecord = [String: [String]]

    /// `scripts/data/language-subtag-registry.txt`, found from this file's path so the test
    /// works both in the standalone package and in the main repository.
    static let registryText: String = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/data/language-subtag-registry.txt")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    static let rawRecords: [RawRecord] = {
        var records: [RawRecord] = []
        for chunk in registryText.components(separatedBy: "\n%%\n").dropFirst() {
            var record: RawRecord = [:]
            var lastField = ""
            for line in chunk.split(separator: "\n") {
                if line.hasPrefix(" ") {
                    record[lastField]![record[lastField]!.count - 1] += " " + line.trimmingCharacters(in: .whitespaces)
                } else if let colon = line.range(of: ": ") {
                    lastField = String(line[..<colon.lowerBound])
                    record[lastField, default: []].append(String(line[colon.upperBound...]))
                }
            }
            records.append(record)
        }
        return records
    }()

    @Test func fileDateMatchesTheVendoredRegistry() {
        #expect(SubtagRegistry.fileDate == "2026-09-17")
        #expect(Self.registryText.hasPrefix("File-Date: \(SubtagRegistry.fileDate)\n"))
    }

    @Test func everyRegistryRecordIsFoundWithItsFields() throws {
        #expect(Self.rawRecords.count == 9_296)
        var checked = 0
        for raw in Self.rawRecords {
            let type = try #require(SubtagType(rawValue: raw["Type"]![0]))
            let name = (raw["Subtag"] ?? raw["Tag"])![0]
            if name.contains("..") { continue }
            let record = try #require(SubtagRegistry.record(for: name, type: type), "\(type) \(name)")
            #expect(record.subtag == name)
            #expect(record.isDeprecated == (raw["Deprecated"] != nil), "\(name)")
            #expect(record.isPrivateUse == (raw["Description"]!.contains("Private use")), "\(name)")
            #expect(record.preferredValue == raw["Preferred-Value"]?.first, "\(name)")
            #expect(record.prefixes == (raw["Prefix"] ?? []), "\(name)")
            #expect(record.suppressScript == raw["Suppress-Script"]?.first, "\(name)")
            #expect(record.macrolanguage == raw["Macrolanguage"]?.first, "\(name)")
            checked += 1
        }
        #expect(checked == 9_292)
    }

    @Test(arguments: SubtagType.allCases)
    func recordCountsMatchTheRegistry(type: SubtagType) {
        let expected = Self.rawRecords.filter {
            $0["Type"]![0] == type.rawValue && !(($0["Subtag"] ?? $0["Tag"])![0].contains(".."))
        }.count
        #expect(SubtagRegistry.records(of: type).count == expected)
    }

    @Test(arguments: [
        ("qaa", SubtagType.language), ("qcz", .language), ("qtz", .language),
        ("Qaaa", .script), ("Qabx", .script), ("QM", .region), ("QZ", .region), ("XA", .region), ("XZ", .region),
        ("AA", .region), ("ZZ", .region),
    ])
    func privateUseRangesAndSubtagsAreFound(subtag: String, type: SubtagType) throws {
        let record = try #require(SubtagRegistry.record(for: subtag.lowercased(), type: type))
        #expect(record.isPrivateUse)
        #expect(record.subtag == subtag)
    }

    @Test(arguments: [("qua", SubtagType.script), ("Qaby", .script), ("QL", .region), ("XAA", .region), ("", .language)])
    func subtagsOutsideTheRangesAreNotPrivateUse(subtag: String, type: SubtagType) {
        #expect(SubtagRegistry.record(for: subtag, type: type)?.isPrivateUse != true)
    }

    @Test func lookupsIgnoreCaseAndReturnTheConventionalCase() {
        #expect(SubtagRegistry.record(for: "EN", type: .language)?.subtag == "en")
        #expect(SubtagRegistry.record(for: "latn", type: .script)?.subtag == "Latn")
        #expect(SubtagRegistry.record(for: "gb", type: .region)?.subtag == "GB")
        #expect(SubtagRegistry.record(for: "I-KLINGON", type: .grandfathered)?.subtag == "i-klingon")
        #expect(SubtagRegistry.record(for: "SGN-be-fr", type: .grandfathered)?.subtag == "sgn-BE-FR")
        #expect(SubtagRegistry.record(for: "zh-hans", type: .redundant)?.subtag == "zh-Hans")
        #expect(SubtagRegistry.record(for: "en", type: .region) == nil)
        #expect(SubtagRegistry.record(for: "é", type: .language) == nil)
    }

    @Test func recordsCarryTheRegistryFacts() throws {
        let iw = try #require(SubtagRegistry.record(for: "iw", type: .language))
        #expect(iw.isDeprecated && iw.preferredValue == "he" && iw.suppressScript == "Hebr")
        let bu = try #require(SubtagRegistry.record(for: "BU", type: .region))
        #expect(bu.isDeprecated && bu.preferredValue == "MM")
        let heploc = try #require(SubtagRegistry.record(for: "heploc", type: .variant))
        #expect(heploc.preferredValue == "alalc97" && heploc.prefixes == ["ja-Latn-hepburn"])
        #expect(SubtagRegistry.record(for: "1994", type: .variant)?.prefixes.count == 5)
        #expect(SubtagRegistry.record(for: "yue", type: .extlang)?.prefixes == ["zh"])
        #expect(SubtagRegistry.record(for: "nb", type: .language)?.macrolanguage == "no")
        #expect(SubtagRegistry.record(for: "zh-yue", type: .redundant)?.preferredValue == "yue")
        #expect(SubtagRegistry.record(for: "i-default", type: .grandfathered)?.preferredValue == nil)
        #expect(SubtagRegistry.records(of: .grandfathered).count == 26)
    }

    /// `msgc lint` has about 100 ms in all; the registry must cost a small part of it.
    @Test func lookupsAreCheapFromTheFirstOne() {
        let clock = ContinuousClock()
        let first = clock.measure { _ = SubtagRegistry.record(for: "zu", type: .language) }
        let tags = ["en-US", "de-DE", "zh-Hans-CN", "sr-Latn-RS", "es-419", "ja-JP", "i-klingon", "pt-BR"]
        var findings = 0
        let thousandChecks = clock.measure {
            for index in 0..<1_000 { findings += LanguageTagChecker.check(tags[index % tags.count]).count }
        }
        print("first registry lookup: \(first); 1000 LanguageTagChecker.check calls: \(thousandChecks)")
        #expect(first < .milliseconds(5))
        #expect(findings > 0)
    }
}
