import Foundation
import Testing
import TestSupport

/// `msgc pseudo` and `msgc preview` as a user runs them, on a copy of the example.
@Suite(.ownThreads, .serialized) struct PseudoAndPreviewTests {
    @Test func pseudoWritesIntoTranslationsLintForecastsAndBuildLeavesItOut() throws {
        let scratch = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let content = try DiffTests.exampleCopy(in: scratch)

        let accented = try MsgcRunner.run(["pseudo", "--locale", "en-XA", "--content", "content"], in: scratch)
        #expect(accented.status == 0, "\(accented.stderr)")
        #expect(accented.stdout == "wrote content/translations/en-XA.xliff (XLIFF 1.2, en-XA, +35%): 32 strings, 5 longer than Apple's limit; `msgc lint` says where, `msgc preview --locale en-XA` shows them\n")
        let rtl = try MsgcRunner.run(["pseudo", "--locale", "ar-XB", "--expansion", "0.5", "--content", "content"], in: scratch)
        #expect(rtl.status == 0, "\(rtl.stderr)")
        #expect(rtl.stdout.hasPrefix("wrote content/translations/ar-XB.xliff (XLIFF 1.2, ar-XB, +50%): 32 strings, "))
        let xliff = try String(contentsOf: content.appendingPathComponent("translations/ar-XB.xliff"), encoding: .utf8)
        #expect(xliff.contains("target-language=\"ar-XB\""))
        #expect(xliff.contains("<target state=\"translated\">[Ýöûŕ\u{200F} šţŕéàķ\u{200F} îš\u{200F} ŵàîţîñĝ"))

        // Lint reports the overflow as warnings, so the tree still lints without errors.
        let lint = try MsgcRunner.run(["lint", "--content", content.path, "--format", "json"])
        #expect(lint.status == 0, "\(lint.stdout)")
        #expect(lint.stdout.contains("\"code\": \"LEN001\""))
        #expect(lint.stdout.contains("en-XA is a pseudo locale"))
        #expect(!lint.stdout.contains("\"severity\": \"error\""))

        // The build ships neither pseudo locale, in either environment.
        for environment in ["sandbox", "production"] {
            let out = scratch.appendingPathComponent(environment)
            let build = try MsgcRunner.run(["build", "--content", content.path, "--environment", environment, "--out", out.path])
            #expect(build.status == 0, "\(build.stderr)")
            #expect(build.stdout.contains("in 8 locales (ar-SA, de-DE, en-US, es-MX, fr-FR, ja, pt-BR, zh-Hans)"))
            let manifest = try String(contentsOf: out.appendingPathComponent("manifest.json"), encoding: .utf8)
            #expect(!manifest.contains("-XA") && !manifest.contains("-XB"))
        }
        // --strict counts the forecasts as warnings, like any other.
        #expect(try MsgcRunner.run(["lint", "--content", content.path, "--strict", "--quiet"]).status == 1)
    }

    @Test func pseudoRefusesWhatCannotBeAPseudoLocale() throws {
        let example = MsgcRunner.packageRoot.appendingPathComponent("content").path
        for (arguments, message) in [
            (["--locale", "de-DE"], "'de-DE' is not a pseudo locale; use en-XA (accented and expanded), ar-XB (right to left) or a tag ending in -x-pseudo, such as en-x-pseudo"),
            (["--locale", "en_XA"], "'en_XA' is not a valid BCP 47 tag in canonical case"),
            (["--locale", "en-XA", "--expansion", "5"], "--expansion takes a fraction from 0 to 3 (0.35 is 35% longer), not 5.0"),
        ] {
            let result = try MsgcRunner.run(["pseudo", "--content", example] + arguments)
            #expect(result.status == 2)
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
    }

    @Test func previewWritesOnePagePerLocaleAndAnIndex() throws {
        let scratch = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let example = MsgcRunner.packageRoot.appendingPathComponent("content").path
        let result = try MsgcRunner.run(["preview", "--content", example, "--out", "gallery"], in: scratch)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "wrote gallery/index.html and 8 locale pages: 72 sheets, 0 with findings\n")
        let files = try MsgcRunner.files(in: scratch.appendingPathComponent("gallery"))
        #expect(files.keys.sorted() == ["ar-SA.html", "de-DE.html", "en-US.html", "es-MX.html", "fr-FR.html", "index.html", "ja.html", "pt-BR.html", "zh-Hans.html"])

        // The same bytes again; one locale alone on request; an unknown locale is a usage error.
        let again = try MsgcRunner.run(["preview", "--content", example, "--out", "again", "--quiet"], in: scratch)
        #expect(again.status == 0 && again.stdout.isEmpty)
        #expect(try MsgcRunner.files(in: scratch.appendingPathComponent("again")) == files)
        let one = try MsgcRunner.run(["preview", "--content", example, "--out", "one", "--locale", "ar-SA"], in: scratch)
        #expect(one.stdout == "wrote one/ar-SA.html: 8 sheets, 0 with findings\n")
        let unknown = try MsgcRunner.run(["preview", "--content", example, "--locale", "it"], in: scratch)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("'it' is not a locale of this project; choose one of en-US, de-DE, fr-FR, es-MX, pt-BR, ja, zh-Hans, ar-SA"))
    }
}
