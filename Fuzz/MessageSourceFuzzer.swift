import Diagnostics
import Model
import Parser

/// libFuzzer entry point for the YAML loaders: any bytes, read both as a message source file
/// (`messages/**/*.yaml`) and as `msgc.yaml`, the two kinds of YAML a content tree holds.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMessageSource(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let (messages, _, diagnostics) = MessageSourceParser.parse(bytes: bytes, path: "messages/fuzz.yaml")
    for diagnostic in diagnostics {
        precondition(diagnostic.location.path == "messages/fuzz.yaml", "a diagnostic names another file")
    }
    for message in messages {
        precondition(MessageSourceParser.isValidKey(message.key.value) || diagnostics.contains { $0.code == "PRS010" },
                     "an invalid key passed without a diagnostic")
    }
    _ = ConfigParser.parse(bytes: bytes)
    return 0
}
