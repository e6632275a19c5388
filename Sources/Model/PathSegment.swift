/// The rules that make a name safe as one segment of a file path: what every name msgc turns
/// into a path (a locale in `LOCALE.html` or `defaults/PRODUCT/LOCALE.json`, a product id, a
/// bundle id) must pass where it enters, and what every output path is checked against again
/// where it is written.
public enum PathSegment {
    /// The most UTF-8 bytes a segment may have: the longest file name Linux, macOS and Windows
    /// file systems all take.
    public static let maxByteCount = 255

    /// Whether `name` is one path segment that names a file inside its folder: not empty, not
    /// `.` or `..`, at most `maxByteCount` bytes, and without `/`, `\`, NUL or any other
    /// control character (which a terminal would act on, or a file system refuse).
    public static func isSafe(_ name: String) -> Bool {
        guard !name.isEmpty, name != ".", name != "..", name.utf8.count <= maxByteCount else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            scalar != "/" && scalar != "\\" && !(scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value))
        }
    }

    /// Why `name` is not safe, for a diagnostic; nil when it is.
    public static func problem(with name: String) -> String? {
        if name.isEmpty { return "is empty" }
        if name == "." || name == ".." { return "is '\(name)', which names a folder, not a file" }
        if name.utf8.count > maxByteCount { return "has \(name.utf8.count) bytes; a file name takes at most \(maxByteCount)" }
        if name.unicodeScalars.contains(where: { $0 == "/" || $0 == "\\" }) { return "holds a path separator" }
        if !isSafe(name) { return "holds a control character" }
        return nil
    }
}
