import Foundation

extension String {
    /// Whether Unicode's NFC quick check (UAX #15) proves the text is in Normalization Form C,
    /// without normalising it.
    ///
    /// Normalising through Foundation copies and converts every string, which made it the
    /// largest cost of `msgc lint` (BENCHMARKS.md). Nearly all real text passes the quick
    /// check: `false` means "not proven", never "not NFC". Where the standard library has no
    /// quick check (Apple platforms before macOS 26), nothing is proven.
    public var passesNFCQuickCheck: Bool {
        if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
            var span = utf8Span
            return span.checkForNFC(quickCheck: true)
        }
        return false
    }

    /// Whether the text is in Normalization Form C: proven by the quick check, else decided by
    /// Foundation. (The standard library's full check, whole or a grapheme cluster at a time,
    /// costs more than Foundation on the Hindi texts the quick check leaves open.)
    public var isNFC: Bool {
        passesNFCQuickCheck || precomposedStringWithCanonicalMapping.unicodeScalars.elementsEqual(unicodeScalars)
    }

    /// The text in Normalization Form C: the text itself, without a copy, when the quick check
    /// proves it already is.
    public var nfcNormalized: String {
        passesNFCQuickCheck ? self : precomposedStringWithCanonicalMapping
    }
}
