// swift-tools-version: 6.1
import PackageDescription

// Modules are cut by what they own, and every arrow points down (docs/architecture.md):
//
//   Model, LanguageTags      plain data (catalog, messages, locations, image facts, the state
//                            file's values, canonical JSON written and read, UUID text, edit
//                            distance, option durations); BCP 47
//   Diagnostics              the diagnostic, RuleInfo, every renderer, terminal and HTML escaping
//   Parser, XLIFF            YAML and PNG reading; XLIFF in both directions
//   Lint                     the rules, their context and registry: they read the model only
//   Bundle, Compiler         identifiers, planner, manifest, the state file and its codes, atomic
//                            writing, diff | the content tree, localization, compilation, release
//                            plan, outcome, every code (Compiler imports Bundle for the state codes)
//   Coverage, Preview, PseudoLocalization, LanguageServer
//   Apply, Realtime          Apple's side: apply and state fetch | the realtime snapshot, choosing,
//                            offer signing, request verification
//   Experiments              the experiment report: exposures and subscriber events in, each
//                            subscriber's outcome, the statistics, the verdict and its renderers
//                            out; pure (no store, no clock), over Model and Diagnostics only, and
//                            linked by the server's side alone, never by msgc
//   ExperimentStore          the experiment store: decisions, sticky assignments, notifications,
//                            in SQLite or PostgreSQL (the system's libsqlite3 and libpq)
//   RealtimeServer           `msgc realtime serve`: HTTP (Hummingbird) over Realtime's responder,
//                            with the experiment store (--store) and Experiments' identifiers
//   CommandLineSupport       standard output and error, the In-App Purchase key's options
//   msgc | msgc-realtime     the two executables: the command line | the realtime server, which
//                            `msgc realtime serve` runs (execv); msgc links no server stack, the
//                            server no YAML, XLIFF or PNG reader and no libcurl
//
// Only Compiler imports Lint. Only RealtimeServer imports the server stack (Hummingbird,
// SwiftNIO, swift-metrics, Prometheus). Experiments imports Model and Diagnostics alone, and msgc
// never imports it. Never Lint -> Parser, Bundle -> Parser, Apply, Realtime or
// RealtimeServer -> Parser or Compiler, a feature -> Lint, Model -> Diagnostics. Every target builds with
// MemberImportVisibility (below), so each file imports what it uses and nothing reaches a
// module through another file's import. CLibXML2 is seen by XLIFF alone, CFileSystem by Bundle
// alone, CHTTP by Apply alone, CCrypto by Bundle (hashes, ES256 keys and signatures) and
// Realtime (X.509 chains of Apple's requests and notifications) and ExperimentStore (HMAC of
// subscribers), CTLS (libssl: HTTPS served directly) by RealtimeServer alone, CSQLite and
// CPostgreSQL by ExperimentStore alone, which only the server's side links. Parser also imports
// CYaml, the libyaml that Yams builds: Yams does not publish it as a product, so it cannot be
// listed below; it comes with Yams, and a libyaml of our own would link the same symbols twice.
//
// msgc builds and is tested on Linux only (Debian with Swift 6): its file writes call Glibc and
// its bundle swap needs Linux's renameat2, so no Apple platform is declared below.
let package = Package(
    name: "msgc",
    products: [
        .executable(name: "msgc", targets: ["msgc"]),
        .executable(name: "msgc-realtime", targets: ["msgc-realtime"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        // The realtime server. No traits of Hummingbird's: its default ones bring
        // swift-configuration, which msgc does not read its settings from (traits need tools 6.1).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.4.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // libssl, for HTTPS served directly (`msgc realtime serve --tls-certificate`): the
        // system's OpenSSL, whose libcrypto msgc already uses, rather than a second TLS stack.
        .systemLibrary(
            name: "CTLS",
            pkgConfig: "libssl",
            providers: [.apt(["libssl-dev"])]
        ),
        // The experiment store's two databases, through Debian's reference C drivers rather than
        // sqlite-nio (which compiles SQLite's amalgamation) and postgres-nio (which brings
        // swift-crypto, a second BoringSSL): minutes of every CI build (docs/architecture.md).
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CPostgreSQL",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        // zlib compresses the PNG images that tests make; msgc itself never inflates or deflates.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // Glibc's Swift module does not expose renameat2 (it needs _GNU_SOURCE); this one C
        // function gives the bundle writer an atomic swap of the previous bundle and the new one.
        .target(name: "CFileSystem"),
        // libcurl for `msgc apply`, loaded when a request is first made rather than linked: the
        // header comes from libcurl4-openssl-dev, the library from libcurl4 at run time.
        .target(name: "CHTTP"),
        .target(name: "Model"),
        // BCP 47 against the IANA Language Subtag Registry (generated by
        // scripts/generate-language-subtag-registry.py) and App Store Connect's locale codes.
        .target(name: "LanguageTags"),
        .target(name: "Diagnostics", dependencies: ["Model"]),
        .target(
            name: "Parser",
            dependencies: ["Model", "Diagnostics", "LanguageTags", .product(name: "Yams", package: "Yams")]
        ),
        .target(name: "XLIFF", dependencies: ["Model", "Diagnostics", "CLibXML2"]),
        .target(name: "Lint", dependencies: ["Model", "Diagnostics", "LanguageTags"]),
        .target(name: "Bundle", dependencies: ["Model", "Diagnostics", "CCrypto", "CFileSystem"]),
        .target(name: "Compiler", dependencies: ["Model", "Diagnostics", "Parser", "XLIFF", "Lint", "Bundle", "LanguageTags"]),
        .target(name: "Coverage", dependencies: ["Model", "Diagnostics", "Compiler", "Bundle"]),
        // `msgc apply` and `msgc state fetch`: the only module that talks to Apple. libcurl (CHTTP)
        // for HTTPS; its ES256 tokens are signed by Bundle's ES256.
        .target(name: "Apply", dependencies: ["Model", "Diagnostics", "Bundle", "CHTTP"]),
        // `msgc realtime`: the snapshot of approved content a realtime server answers from, locale
        // matching, choosing, offer signing, the check of Apple's signed requests and
        // notifications (libcrypto's X.509 chain verification) and the judge of an answer; a
        // library a Swift server can mount. Never Parser or Compiler: Apple's side starts from a
        // bundle.
        .target(name: "Realtime", dependencies: ["Model", "Diagnostics", "LanguageTags", "Bundle", "CCrypto"]),
        // The experiment report (`msgc realtime report`, docs/experiments.md): who counts, by which
        // first exposure, with which outcome; Wilson, Newcombe, Fisher, the probability of being
        // best, the sample-ratio check and the subscribers needed; JSON, table, Markdown and HTML.
        // Plain values in and out: the store fills its input types, and only the server's side
        // links it.
        .target(name: "Experiments", dependencies: ["Model", "Diagnostics"]),
        // `msgc realtime serve`: Realtime's responder over HTTP/1.1 (or HTTPS) on HummingbirdCore,
        // with the snapshot swapped on SIGHUP or a new file, /healthz, Prometheus /metrics, a JSON
        // log line per request and graceful shutdown (swift-service-lifecycle).
        .target(
            name: "RealtimeServer",
            dependencies: [
                "Model", "Bundle", "Realtime", "CTLS", "Experiments", "ExperimentStore",
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // The experiment store (docs/experiments-store.md): the decision log, sticky assignments and
        // App Store Server Notifications, in SQLite (a file) or PostgreSQL (several servers), each
        // connection on a thread of its own behind an async API with deadlines; subscribers only
        // as HMAC-SHA256 of their originalTransactionId (libcrypto). Linked by the server's side
        // alone, never by msgc.
        .target(name: "ExperimentStore", dependencies: ["Model", "CCrypto", "CSQLite", "CPostgreSQL"]),
        // Pseudo-translations (`msgc pseudo`) as XLIFF, through the XLIFF writer.
        .target(name: "PseudoLocalization", dependencies: ["Model", "XLIFF", "LanguageTags"]),
        // `msgc preview`: the cancellation sheet of every message in every locale, as HTML.
        .target(name: "Preview", dependencies: ["Model", "Diagnostics", "Compiler"]),
        // `msgc lsp`: the language server, with its own JSON-RPC framing (no LSP package in the set fits).
        .target(name: "LanguageServer", dependencies: ["Model", "Diagnostics", "Compiler"]),
        // What both executables' command lines share: writing to standard output and error, the
        // In-App Purchase key's options.
        .target(
            name: "CommandLineSupport",
            dependencies: ["Model", "Diagnostics", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "msgc",
            dependencies: [
                "Model", "Diagnostics", "Parser", "XLIFF", "Bundle", "Compiler", "Coverage", "PseudoLocalization",
                "Preview", "LanguageServer", "Apply", "Realtime", "CommandLineSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The realtime server's own executable (`msgc realtime serve` runs it): no YAML, XLIFF or
        // PNG reader, no libcurl, and msgc none of the server stack.
        .executableTarget(
            name: "msgc-realtime",
            dependencies: [
                "Model", "Diagnostics", "Bundle", "Realtime", "RealtimeServer", "Experiments", "ExperimentStore", "CommandLineSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "ModelTests", dependencies: ["Model"]),
        .testTarget(name: "DiagnosticsTests", dependencies: ["Diagnostics", "Compiler", "Model", "TestSupport"], exclude: ["Goldens"]),
        .testTarget(name: "ParserTests", dependencies: ["Parser", "Model", "Diagnostics", "TestSupport"]),
        .testTarget(name: "XLIFFTests", dependencies: ["XLIFF", "Model", "Diagnostics", "CLibXML2", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "LanguageTagsTests", dependencies: ["LanguageTags"]),
        .testTarget(name: "LintTests", dependencies: ["Lint", "Compiler", "Bundle", .product(name: "Yams", package: "Yams"), "Parser", "Model", "Diagnostics", "CZlib", "TestSupport"]),
        .testTarget(name: "BundleTests", dependencies: ["Bundle", "Model", "Diagnostics"]),
        .testTarget(name: "CompilerTests", dependencies: ["Compiler", "Bundle", "XLIFF", "Parser", "Model", "Diagnostics", "TestSupport"]),
        .testTarget(
            name: "CoverageTests",
            dependencies: ["Coverage", "Compiler", "Bundle", "Model", "TestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "PseudoLocalizationTests", dependencies: ["PseudoLocalization", "Compiler", "Bundle", "Model", "Diagnostics"]),
        .testTarget(name: "PreviewTests", dependencies: ["Preview", "PseudoLocalization", "Compiler", "Model", "TestSupport"]),
        .testTarget(name: "LanguageServerTests", dependencies: ["LanguageServer", "TestSupport"]),
        .testTarget(name: "ApplyTests", dependencies: ["Apply", "Bundle", "Model", "TestSupport"]),
        .testTarget(name: "RealtimeTests", dependencies: ["Realtime", "Bundle", "Model", "Diagnostics", "LanguageTags", "TestSupport"]),
        .testTarget(name: "RealtimeServerTests", dependencies: ["RealtimeServer", "ExperimentStore", "TestSupport"]),
        .testTarget(name: "ExperimentsTests", dependencies: ["Experiments", "Model", "TestSupport"], exclude: ["Goldens"]),
        .testTarget(name: "ExperimentStoreTests", dependencies: ["ExperimentStore", "CSQLite", "TestSupport"]),
        .testTarget(name: "msgcTests", dependencies: ["msgc", "msgc-realtime", "ExperimentStore", "Experiments", "TestSupport"], exclude: ["Adversarial", "AppleStandIn", "Fixtures", "Transcripts"]),
    ]
)

// A file sees only the members of modules it imports itself (SE-0444), so each file's imports
// say what it uses and an arrow Package.swift does not declare cannot slip in through another
// file's import.
for target in package.targets where target.type != .system && !["CFileSystem", "CHTTP"].contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}

// The executables and the test bundle are linked by the toolchain's lld rather than the system's
// gold: linking the three at the end of a debug build takes 13 s of CPU with lld where gold takes
// 19, on the build's last, serial step (scripts/build-release.sh links with lld too).
for target in package.targets where target.type == .executable || target.type == .test {
    target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(["-use-ld=lld"])]
}
