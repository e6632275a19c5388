import Parser

/// libFuzzer entry point for the PNG reader: any bytes, read as an image file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNGReader(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    if case .success(let info) = PNGReader.read(bytes) {
        precondition(info.widthPixels > 0 && info.heightPixels > 0, "a PNG with an empty size was accepted")
        precondition(bytes.count >= 8 + 25 + 12 + 12, "a PNG shorter than its required chunks was accepted")
    }
    return 0
}
