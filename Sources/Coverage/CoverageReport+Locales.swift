/// `msgc coverage --locale L`: the report of a few locales, as a translator sent there by
/// their file's report (TRN006) wants it.
extension CoverageReport {
    /// The report with only `wanted`'s columns (in the report's order), every total counted
    /// again from the cells kept. A product sold in none of them is left out.
    public func restricted(to wanted: Set<String>) -> CoverageReport {
        var report = self
        report.locales = locales.filter(wanted.contains)
        report.localeTotals = localeTotals.filter { wanted.contains($0.locale) }
        report.products = products.compactMap { product in
            var product = product
            product.cells = product.cells.filter { wanted.contains($0.locale) }
            guard !product.cells.isEmpty else { return nil }
            var tally = Tally()
            for cell in product.cells { tally.add(cell) }
            product.totals = tally
            return product
        }
        var totals = Tally()
        for product in report.products { for cell in product.cells { totals.add(cell) } }
        report.totals = totals
        return report
    }
}
