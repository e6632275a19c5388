import Diagnostics
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The one way msgc writes to standard output and standard error.
///
/// A write that fails is an `OutputFailure`, which ends msgc with exit status 2 (`main`) and says
/// why on the other stream, if it still works: `msgc lint > /dev/full`, or a file-size limit on
/// a redirect, is an output that cannot be written like any other. A reader that went away
/// (`msgc lint | head -1`) ends it quietly, as it ends other Unix tools.
public enum Output {
    /// Writes `msgc: MESSAGE` on standard error, with anything a terminal would act on in the
    /// message (escape sequences, other controls, bidi overrides) written as `<U+001B>`: an
    /// error quotes paths, locales and manifests that came from someone else.
    public static func error(_ message: String) throws(OutputFailure) {
        try write("msgc: " + TerminalText.escaped(message) + "\n", to: .standardError)
    }

    public static func write(_ text: String, to handle: FileHandle) throws(OutputFailure) {
        var text = text
        let failure = text.withUTF8 { bytes -> OutputFailure? in
            do throws(OutputFailure) { try write(bytes, to: handle) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    /// Writes UTF-8 that is already bytes (a report's parts) as it is.
    public static func write(_ bytes: [UInt8], to handle: FileHandle) throws(OutputFailure) {
        let failure = bytes.withUnsafeBufferPointer { buffer -> OutputFailure? in
            do throws(OutputFailure) { try write(buffer, to: handle) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    private static func write(_ bytes: UnsafeBufferPointer<UInt8>, to handle: FileHandle) throws(OutputFailure) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(handle.fileDescriptor, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw OutputFailure(descriptor: handle.fileDescriptor, code: errno)
            }
            offset += written
        }
    }
}

/// Standard output or standard error could not be written (`Output`): `main` ends msgc with
/// exit status 2.
public struct OutputFailure: Error {
    /// The stream that failed, and `errno`.
    public var descriptor: Int32
    public var code: Int32

    public init(descriptor: Int32, code: Int32) {
        self.descriptor = descriptor
        self.code = code
    }

    /// Says why on the other stream, if it still works; nothing for a reader that went away.
    public func report() {
        guard code != EPIPE else { return }
        let name = descriptor == STDERR_FILENO ? "standard error" : "standard output"
        let other = descriptor == STDERR_FILENO ? STDOUT_FILENO : STDERR_FILENO
        let message = Array("msgc: cannot write to \(name): \(String(cString: strerror(code)))\n".utf8)
        _ = message.withUnsafeBufferPointer { Glibc.write(other, $0.baseAddress!, $0.count) }
    }
}
