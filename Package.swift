// swift-tools-version: 6.0
import PackageDescription

// The dependency graph flows one way:
//   msgc (CLI) -> Coverage -> Lint, Emitter -> Parser -> Model
// Coverage uses the Emitter's BundlePlanner so that the identifiers it matches against a
// state file are computed in exactly one place, the way the bundle computes them.
// Model holds the plain data every stage shares (the catalog, diagnostics, locations) and
// knows no file format or output format. CLibXML2 and CCrypto are system-library shims so
// that only Parser sees libxml2 and only Emitter sees libcrypto.
let package = Package(
    name: "msgc",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "msgc", targets: ["msgc"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
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
        // Glibc's Swift module does not expose renameat2 (it needs _GNU_SOURCE); this one C
        // function gives the Emitter an atomic swap of the previous bundle and the new one.
        .target(name: "CFileSystem"),
        .target(name: "Model"),
        .target(
            name: "Parser",
            dependencies: ["Model", "CLibXML2", .product(name: "Yams", package: "Yams")]
        ),
        .target(name: "Lint", dependencies: ["Model", "Parser"]),
        .target(name: "Emitter", dependencies: ["Model", "Parser", "CCrypto", "CFileSystem"]),
        .target(name: "Coverage", dependencies: ["Model", "Parser", "Lint", "Emitter"]),
        .executableTarget(
            name: "msgc",
            dependencies: [
                "Model", "Parser", "Lint", "Emitter", "Coverage",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "ModelTests", dependencies: ["Model"]),
        .testTarget(name: "ParserTests", dependencies: ["Parser", "CLibXML2"], exclude: ["Fixtures"]),
        .testTarget(name: "EmitterTests", dependencies: ["Emitter", "Parser"]),
        .testTarget(
            name: "CoverageTests",
            dependencies: ["Coverage", "Emitter", "Lint", "Parser", "Model"],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "msgcTests", dependencies: ["msgc"]),
    ]
)
