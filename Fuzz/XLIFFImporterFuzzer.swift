import Diagnostics
import Model
import XLIFF

/// libFuzzer entry point for the XLIFF importer: any bytes, read as a translation file.
///
/// The reader must return (a file and its diagnostics) for every input: no crash, no hang, no
/// leak, no read of anything but the bytes given. Returning a file that claims to be readable
/// while also reporting an error would be a logic bug, so that is checked as well, and so is
/// reading it again with its own ids and source texts expected (`ExpectedUnits`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXLIFFImporter(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let (file, diagnostics) = XLIFFReader.read(bytes: bytes, path: "translations/fuzz.xliff")
    if !file.isReadable {
        precondition(file.units.isEmpty, "an unreadable file returned units")
        precondition(diagnostics.count == 1, "an unreadable file gave \(diagnostics.count) diagnostics")
    }
    for diagnostic in diagnostics {
        precondition(diagnostic.location.path == "translations/fuzz.xliff", "a diagnostic names another file")
        precondition(!diagnostic.message.isEmpty, "a diagnostic has no message")
    }
    // Told to expect every id it found (and one it did not), the reader changes nothing: the
    // same units, the same findings.
    let expected = ExpectedUnits(ids: file.units.map(\.id.value) + ["com.example/k/header"])
    let (sharing, sharingDiagnostics) = XLIFFReader.read(bytes: bytes, path: "translations/fuzz.xliff", expecting: expected)
    precondition(sharing == file, "expecting the file's own ids changed what was read")
    precondition(sharingDiagnostics == diagnostics, "expecting the file's own ids changed the findings")
    return 0
}
