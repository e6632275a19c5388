import Foundation
import Testing
import TestSupport

/// `msgc realtime snapshot` and `msgc realtime check`, run as built, on the example content.
@Suite(.ownThreads) struct RealtimeCommandTests {
    let example = MsgcRunner.packageRoot.appendingPathComponent("content").path

    /// A production bundle of the example and a state file in which Apple approved every
    /// upload except the German half-price offer (in review) and the Japanese benefits message
    /// (not uploaded), or, `everythingApproved`, every upload.
    func releasedExample(everythingApproved: Bool = false) throws -> (folder: URL, bundle: String, state: String) {
        let folder = try MsgcRunner.temporaryFolder()
        let bundle = folder.appendingPathComponent("production").path
        #expect(try MsgcRunner.run(["build", "--content", example, "--environment", "production", "--out", bundle]).status == 0)
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: bundle + "/manifest.json"))) as! [String: Any]
        var messages: [[String: String]] = []
        var images: [[String: String]] = []
        for case let entry as [String: Any] in manifest["operations"] as! [Any] {
            let identifier = entry["identifier"] as? String ?? ""
            switch entry["op"] as? String {
            case "uploadImage": images.append(["imageIdentifier": identifier, "imageState": "APPROVED"])
            case "uploadMessage":
                if !everythingApproved, entry["key"] as? String == "benefits", entry["locale"] as? String == "ja" { continue }
                let pending = !everythingApproved && entry["key"] as? String == "offer-half-price" && entry["locale"] as? String == "de-DE"
                messages.append(["messageIdentifier": identifier, "messageState": pending ? "PENDING" : "APPROVED"])
            default: continue
            }
        }
        let state = folder.appendingPathComponent("state.json").path
        try JSONSerialization.data(withJSONObject: [
            "environment": "production", "bundleId": "com.example.parla",
            "messages": ["messageIdentifiers": messages], "images": ["imageIdentifiers": images],
        ])
            .write(to: URL(fileURLWithPath: state))
        return (folder, bundle, state)
    }

    func snapshotJSON(_ path: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
    }

    @Test func snapshotListsApprovedAnswersAndSaysWhyTheRestIsLeftOut() throws {
        let (folder, bundle, state) = try releasedExample()
        let out = folder.appendingPathComponent("snapshot.json").path
        let result = try MsgcRunner.run(["realtime", "snapshot", bundle, "--state", state, "--out", out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("production snapshot of sha256:"))
        #expect(result.stdout.contains("1 pending, 1 not-uploaded"))
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let snapshot = try snapshotJSON(out)
        #expect(snapshot["schemaVersion"] as? Int == 1)
        #expect(snapshot["environment"] as? String == "production")
        let omitted = snapshot["omitted"] as! [[String: Any]]
        #expect(Set(omitted.map { "\($0["locale"]!)/\($0["key"]!)/\($0["reason"]!)" }) == ["de-DE/offer-half-price/pending", "ja/benefits/not-uploaded"])
        let yearly = (snapshot["products"] as! [[String: Any]]).first { $0["id"] as? String == "com.example.parla.plus.yearly" }!
        #expect(yearly["group"] as? String == "parla")
        #expect(yearly["choice"] as? String == "first-usable")
        let matches = yearly["localeMatches"] as! [String: String]
        #expect(matches["de-DE"] == "de-DE" && matches["zh-Hans"] == "zh-Hans" && matches["en-GB"] == "en-US" && matches["zh-Hant"] == nil)
        let german = (yearly["locales"] as! [[String: Any]]).first { $0["locale"] as? String == "de-DE" }!
        #expect(german["default"] as? String == "winback")
        let keys = (german["messages"] as! [[String: Any]]).map { $0["key"] as! String }
        #expect(keys == ["benefits", "switch-monthly", "winback"])
        let switchPlan = (german["messages"] as! [[String: Any]]).first { $0["key"] as? String == "switch-monthly" }!
        #expect(switchPlan["answer"] as? String == "alternateProduct")
        #expect(switchPlan["productId"] as? String == "com.example.parla.plus.monthly")

        // The same inputs, the same bytes, from another folder and another time zone.
        let again = folder.appendingPathComponent("again.json").path
        #expect(try MsgcRunner.run(["realtime", "snapshot", bundle, "--state", state, "--out", again], in: folder, environment: ["TZ": "Asia/Tokyo", "LANG": "de_DE.UTF-8"]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data(contentsOf: URL(fileURLWithPath: again)))
    }

    /// The German offer is edited and waits for review: the previous snapshot's version answers.
    @Test func previousSnapshotKeepsTheApprovedVersionOfAMessageInReview() throws {
        let (folder, bundle, state) = try releasedExample()
        // Everything approved first: the snapshot now deployed.
        let approvedState = folder.appendingPathComponent("approved.json").path
        try Data(try String(contentsOfFile: state, encoding: .utf8).replacingOccurrences(of: "PENDING", with: "APPROVED").utf8).write(to: URL(fileURLWithPath: approvedState))
        let deployed = folder.appendingPathComponent("deployed.json").path
        #expect(try MsgcRunner.run(["realtime", "snapshot", bundle, "--state", approvedState, "--out", deployed]).status == 0)
        let old = try snapshotJSON(deployed)

        // A copy edit of the German offer: a new identifier, PENDING; the old one still APPROVED.
        let tree = folder.appendingPathComponent("content")
        try FileManager.default.copyItem(atPath: example, toPath: tree.path)
        let xliff = tree.appendingPathComponent("translations/de-DE.xliff")
        let text = try String(contentsOf: xliff, encoding: .utf8)
        let edited = text.replacingOccurrences(of: "Dein nächstes Jahr", with: "Dein neues Jahr")
        #expect(edited != text)
        try Data(edited.utf8).write(to: xliff)
        let newBundle = folder.appendingPathComponent("new").path
        #expect(try MsgcRunner.run(["build", "--content", tree.path, "--environment", "production", "--out", newBundle]).status == 0)
        var held = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: approvedState))) as! [String: Any]
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: newBundle + "/manifest.json"))) as! [String: Any]
        let newOffer = (manifest["operations"] as! [[String: Any]]).first { $0["key"] as? String == "offer-half-price" && $0["locale"] as? String == "de-DE" && $0["op"] as? String == "uploadMessage" }!["identifier"] as! String
        var messages = held["messages"] as! [String: [[String: String]]]
        messages["messageIdentifiers"]!.append(["messageIdentifier": newOffer, "messageState": "PENDING"])
        held["messages"] = messages
        let newState = folder.appendingPathComponent("new-state.json").path
        try JSONSerialization.data(withJSONObject: held).write(to: URL(fileURLWithPath: newState))

        let out = folder.appendingPathComponent("snapshot.json").path
        let result = try MsgcRunner.run(["realtime", "snapshot", newBundle, "--state", newState, "--out", out, "--previous", deployed])
        #expect(result.status == 0, "\(result.stderr)")
        func offer(_ snapshot: [String: Any]) -> [String: Any]? {
            let yearly = (snapshot["products"] as! [[String: Any]]).first { $0["id"] as? String == "com.example.parla.plus.yearly" }!
            let german = (yearly["locales"] as! [[String: Any]]).first { $0["locale"] as? String == "de-DE" }!
            return (german["messages"] as! [[String: Any]]).first { $0["key"] as? String == "offer-half-price" }
        }
        let kept = try #require(offer(try snapshotJSON(out)))
        #expect(kept["version"] as? String == "previous")
        #expect(kept["identifier"] as? String == offer(old)?["identifier"] as? String)
        #expect(kept["identifier"] as? String != newOffer)
        #expect(kept["offerIdentifier"] as? String == "plus.yearly.half_price")
        // Without --previous the message is off the sheet.
        #expect(try MsgcRunner.run(["realtime", "snapshot", newBundle, "--state", newState, "--out", out]).status == 0)
        #expect(offer(try snapshotJSON(out)) == nil)
    }

    @Test func unusableInputsAreIOFailures() throws {
        let (folder, bundle, state) = try releasedExample()
        let out = folder.appendingPathComponent("snapshot.json").path
        let missing = try MsgcRunner.run(["realtime", "snapshot", bundle, "--state", folder.appendingPathComponent("none.json").path, "--out", out])
        #expect(missing.status == 2)
        let notSnapshot = try MsgcRunner.run(["realtime", "snapshot", bundle, "--state", state, "--out", out, "--previous", state])
        #expect(notSnapshot.status == 2)
        #expect(notSnapshot.stderr.contains("is not an msgc realtime snapshot"))
        try Data("{}".utf8).write(to: URL(fileURLWithPath: bundle + "/messages/extra.json"))
        let damaged = try MsgcRunner.run(["realtime", "snapshot", bundle, "--state", state, "--out", out])
        #expect(damaged.status == 2)
        #expect(damaged.stderr.contains("damaged"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// A manifest's `switchTo` is re-checked where it is read: edited to a product outside the
    /// message's group (or not in msgc.yaml), the snapshot is refused, naming the line.
    @Test func aSwitchToOutsideTheGroupIsRefusedWhereTheManifestIsRead() throws {
        let (folder, bundle, state) = try releasedExample(everythingApproved: true)
        let manifestPath = bundle + "/manifest.json"
        let text = try String(contentsOfFile: manifestPath, encoding: .utf8)
        let original = "\"switchTo\": \"com.example.parla.plus.monthly\""
        #expect(text.contains(original))
        for target in ["com.example.other.monthly", "com.example.parla.plus.yearly"] {
            try text.replacingOccurrences(of: original, with: "\"switchTo\": \"\(target)\"").write(toFile: manifestPath, atomically: true, encoding: .utf8)
            let out = folder.appendingPathComponent("snapshot.json").path
            let result = try MsgcRunner.run(["realtime", "snapshot", bundle, "--state", state, "--out", out])
            #expect(result.status == 2, "\(target): \(result.stderr)")
            #expect(result.stderr.contains("manifest.json:") && result.stderr.contains("\"switchTo\" '\(target)' is not another product of the group"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }

    /// `--no-answer` asserts that a server's 404 is right: exit 0 where the snapshot has no answer
    /// for the product and locale, 1 (RTM010) where it has one; an empty RESPONSE says to use it.
    @Test func checkAssertsThatNoAnswerIsRight() throws {
        let (folder, bundle, state) = try releasedExample(everythingApproved: true)
        let snapshotPath = folder.appendingPathComponent("snapshot.json").path
        #expect(try MsgcRunner.run(["realtime", "snapshot", bundle, "--state", state, "--out", snapshotPath]).status == 0)
        let yearly = ["--snapshot", snapshotPath, "--product", "com.example.parla.plus.yearly"]
        let korean = try MsgcRunner.run(["realtime", "check", "--no-answer"] + yearly + ["--locale", "ko-KR"])
        #expect(korean.status == 0, "\(korean.stdout)\(korean.stderr)")
        #expect(korean.stdout.contains("answering nothing is right"))
        let english = try MsgcRunner.run(["realtime", "check", "--no-answer"] + yearly + ["--locale", "en-GB", "--format", "github"])
        #expect(english.status == 1)
        #expect(english.stdout.contains("RTM010") && english.stdout.contains("the server answered nothing"), "\(english.stdout)")
        let empty = folder.appendingPathComponent("empty.json").path
        try Data().write(to: URL(fileURLWithPath: empty))
        let both = try MsgcRunner.run(["realtime", "check", empty, "--no-answer"] + yearly + ["--locale", "en-US"])
        #expect(both.status == 2 && both.stderr.contains("give one of them"), "\(both.stderr)")
        let neither = try MsgcRunner.run(["realtime", "check"] + yearly + ["--locale", "en-US"])
        #expect(neither.status == 2 && neither.stderr.contains("--no-answer"), "\(neither.stderr)")
        let emptyAnswer = try MsgcRunner.run(["realtime", "check", empty] + yearly + ["--locale", "en-US"])
        #expect(emptyAnswer.status == 1 && emptyAnswer.stdout.contains("--no-answer"), "\(emptyAnswer.stdout)")
    }

    /// Every answer the snapshot allows passes `msgc realtime check`, and Apple's Python models
    /// read it as one answer; answers in shapes Apple does not define fail both.
    @Test func checkJudgesAnswersAsAppleReadsThem() throws {
        let (folder, bundle, state) = try releasedExample()
        let snapshotPath = folder.appendingPathComponent("snapshot.json").path
        #expect(try MsgcRunner.run(["realtime", "snapshot", bundle, "--state", state, "--out", snapshotPath]).status == 0)
        let snapshot = try snapshotJSON(snapshotPath)
        var good: [(file: String, product: String, locale: String)] = []
        for product in snapshot["products"] as! [[String: Any]] {
            for locale in product["locales"] as! [[String: Any]] {
                for message in locale["messages"] as! [[String: Any]] {
                    let identifier = message["identifier"] as! String
                    let body: String = switch message["answer"] as! String {
                    case "alternateProduct": #"{"alternateProduct": {"messageIdentifier": "\#(identifier)", "productId": "\#(message["productId"]!)"}}"#
                    case "promotionalOffer": #"{"promotionalOffer": {"messageIdentifier": "\#(identifier)", "promotionalOfferSignatureV2": "\#(Self.signature(offer: message["offerIdentifier"] as! String, product: product["id"] as! String))"}}"#
                    default: #"{"message": {"messageIdentifier": "\#(identifier)"}}"#
                    }
                    let file = folder.appendingPathComponent("good-\(good.count).json").path
                    try Data(body.utf8).write(to: URL(fileURLWithPath: file))
                    good.append((file, product["id"] as! String, locale["locale"] as! String))
                }
            }
        }
        #expect(good.count > 40)
        for answer in good {
            let result = try MsgcRunner.run(["realtime", "check", answer.file, "--snapshot", snapshotPath, "--product", answer.product, "--locale", answer.locale])
            #expect(result.status == 0, "\(answer): \(result.stdout)")
        }
        // A device locale the project lacks is matched: de-AT gets the German message.
        let german = good.first { $0.product == "com.example.parla.plus.yearly" && $0.locale == "de-DE" }!
        #expect(try MsgcRunner.run(["realtime", "check", german.file, "--snapshot", snapshotPath, "--product", german.product, "--locale", "de-AT"]).status == 0)
        let english = try MsgcRunner.run(["realtime", "check", german.file, "--snapshot", snapshotPath, "--product", german.product, "--locale", "en-US", "--format", "json"])
        #expect(english.status == 1)
        #expect(english.stdout.contains("\"RTM004\""))

        let yearlyText = good.first { $0.product == "com.example.parla.plus.yearly" && $0.locale == "en-US" && (try? String(contentsOfFile: $0.file, encoding: .utf8))?.contains("\"message\"") == true }!
        let textIdentifier = try String(contentsOfFile: yearlyText.file, encoding: .utf8).split(separator: "\"")[5]
        let bad: [(body: String, code: String, appleReads: Bool)] = [
            (#"{"messageIdentifier": "\#(textIdentifier)"}"#, "RTM003", false),
            (#"{"message": {"messageIdentifier": "\#(textIdentifier)"}, "alternateProduct": {"messageIdentifier": "\#(textIdentifier)", "productId": "com.example.parla.plus.monthly"}}"#, "RTM003", false),
            (#"{"message": {"messageIdentifier": 7}}"#, "RTM002", false),
            (#"{"message": {}}"#, "RTM002", false),
            (#"{"promotionalOffer": {"messageIdentifier": "\#(textIdentifier)"}}"#, "RTM005", false),
            (#"{"alternateProduct": {"messageIdentifier": "\#(textIdentifier)", "productId": "com.example.parla.plus.monthly"}}"#, "RTM005", true),
            (#"{"message": {"messageIdentifier": "00000000-0000-5000-8000-000000000000"}}"#, "RTM004", true),
            (#"{"message": {"messageIdentifier": "\#(textIdentifier)"}, "locale": "en-US"}"#, "RTM009", true),
        ]
        var files: [String] = []
        for (index, answer) in bad.enumerated() {
            let file = folder.appendingPathComponent("bad-\(index).json").path
            try Data(answer.body.utf8).write(to: URL(fileURLWithPath: file))
            files.append(file)
            let result = try MsgcRunner.run(["realtime", "check", file, "--snapshot", snapshotPath, "--product", yearlyText.product, "--locale", "en-US", "--format", "github"])
            #expect(result.stdout.contains(answer.code), "\(answer.body): \(result.stdout)")
            #expect(result.status == (answer.code == "RTM009" ? 0 : 1), "\(answer.body)")
        }
        // --strict makes a warning fail the check, as it does lint's (no msgc.yaml is read: the rules keep their severities).
        let strict = try MsgcRunner.run(["realtime", "check", files[7], "--snapshot", snapshotPath, "--product", yearlyText.product, "--locale", "en-US", "--strict"])
        #expect(strict.status == 1, "\(strict.stdout)")
        #expect(strict.stdout.contains("error:") && strict.stdout.contains("[RTM009]"), "\(strict.stdout)")
        let sarif = try MsgcRunner.run(["realtime", "check", files[0], "--snapshot", snapshotPath, "--product", yearlyText.product, "--locale", "en-US", "--format", "sarif"])
        #expect(sarif.stdout.contains("\"ruleId\" : \"RTM003\"") || sarif.stdout.contains("\"ruleId\": \"RTM003\""))
        let human = try MsgcRunner.run(["realtime", "check", files[2], "--snapshot", snapshotPath, "--product", yearlyText.product, "--locale", "en-US"])
        #expect(human.stdout.contains("bad-2.json:1:35: error:"), "\(human.stdout)")

        guard let python = ProcessInfo.processInfo.environment["MSGC_APPLE_LIBRARY_PYTHON"] else { return }
        let verdicts = try Self.appleVerdicts(python: python, files: good.map(\.file) + files)
        #expect(verdicts.prefix(good.count).allSatisfy { $0 == "ok" }, "\(verdicts)")
        for (verdict, answer) in zip(verdicts.dropFirst(good.count), bad) {
            #expect(verdict.hasPrefix("ok") == answer.appleReads, "\(answer.body): Apple's models say \(verdict)")
        }
        #expect(verdicts.last == "ok unknown: locale")
    }

    /// The answers of Apple's Python models, one line per file.
    static func appleVerdicts(python: String, files: [String]) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [MsgcRunner.packageRoot.appendingPathComponent("scripts/check-realtime-response-with-apple-library.py").path] + files
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// A JWS whose claims name the offer (the signature itself is not what the check reads).
    static func signature(offer: String, product: String) -> String {
        func part(_ object: [String: String]) -> String {
            let data = try! JSONSerialization.data(withJSONObject: object, options: .sortedKeys)
            return data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        return part(["alg": "ES256", "kid": "ABC123DEFG"]) + "." + part(["aud": "promotional-offer", "offerIdentifier": offer, "productId": product, "nonce": UUID().uuidString.lowercased()]) + ".c2lnbmF0dXJl"
    }
}

extension RealtimeCommandTests {
    @Test func aSnapshotIsNeverWrittenIntoTheBundle() throws {
        let (_, bundle, state) = try releasedExample()
        let result = try MsgcRunner.run(["realtime", "snapshot", bundle, "--state", state, "--out", bundle + "/snapshot.json"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("inside the bundle"))
        #expect(!FileManager.default.fileExists(atPath: bundle + "/snapshot.json"))
    }

    @Test func aStateOfTheOtherEnvironmentIsNamed() throws {
        let (folder, bundle, _) = try releasedExample()
        let sandbox = folder.appendingPathComponent("sandbox").path
        #expect(try MsgcRunner.run(["build", "--content", example, "--environment", "sandbox", "--out", sandbox]).status == 0)
        let result = try MsgcRunner.run(["realtime", "snapshot", sandbox, "--state", folder.appendingPathComponent("state.json").path, "--out", folder.appendingPathComponent("s.json").path])
        // The state file names production (issue 43, case 4): refused, naming both, nothing written.
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("describes production of com.example.parla, but this is sandbox of com.example.parla"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("s.json").path))
        // A state file of sandbox that holds none of this bundle's messages: it answers nothing,
        // refused and named (issue 43 case 3: an empty snapshot passed every gate).
        let sandboxState = folder.appendingPathComponent("sandbox-state.json")
        let production = try String(contentsOfFile: folder.appendingPathComponent("state.json").path, encoding: .utf8)
        try production.replacingOccurrences(of: "\"production\"", with: "\"sandbox\"").write(to: sandboxState, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("s.json").path
        let refused = try MsgcRunner.run(["realtime", "snapshot", sandbox, "--state", sandboxState.path, "--out", out])
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("the snapshot answers nothing"), "\(refused.stderr)")
        #expect(refused.stderr.contains("Apple holds none of this bundle's messages: is the state file of sandbox"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--allow-empty"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let result2 = try MsgcRunner.run(["realtime", "snapshot", sandbox, "--state", sandboxState.path, "--out", out, "--allow-empty"])
        #expect(result2.status == 0)
        #expect(result2.stdout.contains("Apple holds none of this bundle's messages"), "\(result2.stdout)")
        _ = bundle
    }
}

extension RealtimeCommandTests {
    /// With --previous, a snapshot that answers fewer products, locales or messages than the one
    /// deployed names them, even with --quiet (issue 43: the snapshot dropped answers without a word).
    @Test func aSnapshotThatAnswersLessThanThePreviousNamesWhat() throws {
        let (folder, bundle, state) = try releasedExample(everythingApproved: true)
        let deployed = folder.appendingPathComponent("deployed.json").path
        #expect(try MsgcRunner.run(["realtime", "snapshot", bundle, "--state", state, "--out", deployed]).status == 0)
        // Apple now lists every Japanese message REJECTED.
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: bundle + "/manifest.json"))) as! [String: Any]
        let japanese = Set((manifest["operations"] as! [[String: Any]]).filter { $0["op"] as? String == "uploadMessage" && $0["locale"] as? String == "ja" }.map { $0["identifier"] as! String })
        #expect(!japanese.isEmpty)
        // The state names its origin (`environment`, `bundleId`, strings) beside the lists.
        var held = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: state))) as! [String: Any]
        var messages = held["messages"] as! [String: [[String: String]]]
        messages["messageIdentifiers"] = messages["messageIdentifiers"]!.map { entry in
            japanese.contains(entry["messageIdentifier"]!) ? ["messageIdentifier": entry["messageIdentifier"]!, "messageState": "REJECTED"] : entry
        }
        held["messages"] = messages
        let rejected = folder.appendingPathComponent("rejected.json").path
        try JSONSerialization.data(withJSONObject: held).write(to: URL(fileURLWithPath: rejected))
        let result = try MsgcRunner.run(["realtime", "snapshot", bundle, "--state", rejected, "--out", folder.appendingPathComponent("s.json").path, "--previous", deployed, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("deployed.json answers no longer answered: com.example.parla.plus.monthly in ja"), "\(result.stdout)")
        #expect(result.stdout.contains("com.example.parla.plus.yearly/winback in ja"), "\(result.stdout)")
        let same = try MsgcRunner.run(["realtime", "snapshot", bundle, "--state", state, "--out", folder.appendingPathComponent("t.json").path, "--previous", deployed])
        #expect(!same.stdout.contains("no longer answered"), "\(same.stdout)")
    }
}
