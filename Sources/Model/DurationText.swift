/// A duration as msgc's options take it (`--max-wait`, `--shutdown-delay`): `90s`, `10m`, `1h`,
/// `1h30m`, or a number of seconds; at most a week. Shared by msgc and its realtime server.
public enum DurationText {
    /// `90s`, `10m`, `1h`, `1h30m` or a number of seconds, as `--max-wait` takes it.
    public static func seconds(_ text: String) -> Double? {
        let week: Double = 7 * 86400
        if let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= week { return seconds }
        var total: Double = 0
        var digits = ""
        var sawUnit = false
        for character in text {
            if character.isASCII, character.isNumber {
                digits.append(character)
                continue
            }
            let unit: Double
            switch character {
            case "h": unit = 3600
            case "m": unit = 60
            case "s": unit = 1
            default: return nil
            }
            guard let value = Double(digits) else { return nil }
            total += value * unit
            digits = ""
            sawUnit = true
        }
        guard digits.isEmpty, sawUnit, total <= week else { return nil }
        return total
    }
}
