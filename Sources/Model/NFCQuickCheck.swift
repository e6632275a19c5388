extension String {
    /// Whether Unicode's NFC quick check (UAX #15) proves the text is in Normalization Form C,
    /// without normalising it.
    ///
    /// Normalising through Foundation copies and converts every string, which made it the
    /// largest cost of `msgc lint` (BENCHMARKS.md). Nearly all real text passes the quick
    /// check, so callers normalise only what fails it: `false` means "not proven", never
    /// "not NFC". Where the standard library has no quick check (Apple platforms before
    /// macOS 26), nothing is proven and every text takes the slow path.
    public var passesNFCQuickCheck: Bool {
        if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
            var span = utf8Span
            return span.checkForNFC(quickCheck: true)
        }
        return false
    }
}
