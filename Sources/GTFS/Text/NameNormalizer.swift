@_spi(_Unicode) import Swift

/// Folds stop names and search text to one comparable form, so "Łódź" is found by "lodz" and
/// "U Görlitzer Bahnhof" by "u gorli".
///
/// The steps: canonical decomposition (NFD); remove every nonspacing mark (category Mn);
/// lowercase; fold the letters that have no decomposition (ł→l, ø→o, đ→d, ð→d, ß→ss, æ→ae,
/// œ→oe, ı→i, þ→th, ħ→h, ŀ→l); recompose (NFC). It uses the standard library's own Unicode
/// tables, so the query commands need no Foundation or ICU at start-up.
public enum NameNormalizer {
    /// `text` in normalized form.
    public static func normalize(_ text: String) -> String {
        // Plain ASCII (most queries, many names) only needs lowercasing.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: text.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
        }
        var folded = String.UnicodeScalarView()
        for scalar in text._nfd {
            let properties = scalar.properties
            if properties.generalCategory == .nonspacingMark { continue }
            if scalar.isASCII {
                let value = scalar.value
                folded.append(value >= 65 && value <= 90 ? Unicode.Scalar(value + 32)! : scalar)
                continue
            }
            for lower in properties.lowercaseMapping.unicodeScalars {
                if let replacement = foldings[lower.value] {
                    folded.append(contentsOf: replacement.unicodeScalars)
                } else {
                    folded.append(lower)
                }
            }
        }
        let decomposedResult = String(folded)
        var composed = String.UnicodeScalarView()
        composed.append(contentsOf: decomposedResult._nfc)
        return String(composed)
    }

    /// `text` folded as a predicate's `[c]`, `[d]` and `[cd]` fold it: `[cd]` is `normalize(_:)`
    /// (the search's folding); `[c]` lowercases only; `[d]` removes marks and folds the letters
    /// without a decomposition (ł→l, Ø→O) but keeps case.
    public static func fold(_ text: String, caseInsensitive: Bool, diacriticInsensitive: Bool) -> String {
        switch (caseInsensitive, diacriticInsensitive) {
        case (true, true): return normalize(text)
        case (true, false): return text.lowercased()
        case (false, false): return text
        case (false, true): break
        }
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
        var folded = String.UnicodeScalarView()
        for scalar in text._nfd {
            let properties = scalar.properties
            if properties.generalCategory == .nonspacingMark { continue }
            let lower = properties.lowercaseMapping.unicodeScalars
            if lower.count == 1, let first = lower.first, let replacement = foldings[first.value] {
                folded.append(contentsOf: (first == scalar ? replacement : replacement.uppercased()).unicodeScalars)
            } else {
                folded.append(scalar)
            }
        }
        var composed = String.UnicodeScalarView()
        composed.append(contentsOf: String(folded)._nfc)
        return String(composed)
    }

    /// The words of an already normalized text: maximal runs of letters and digits (categories L
    /// and N), in order, duplicates kept.
    public static func words(ofNormalized text: String) -> [String] {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isLetterOrDigit(scalar) {
                current.append(scalar)
            } else if !current.isEmpty {
                words.append(String(current))
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { words.append(String(current)) }
        return words
    }

    /// The words of `text` after normalizing it.
    public static func words(of text: String) -> [String] {
        words(ofNormalized: normalize(text))
    }

    static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }

    /// Letters with no canonical decomposition, folded to the Latin letters riders type.
    private static let foldings: [UInt32: String] = [
        0x0142: "l",   // ł
        0x00F8: "o",   // ø
        0x0111: "d",   // đ
        0x00F0: "d",   // ð
        0x00DF: "ss",  // ß
        0x00E6: "ae",  // æ
        0x0153: "oe",  // œ
        0x0131: "i",   // ı
        0x00FE: "th",  // þ
        0x0127: "h",   // ħ
        0x0140: "l",   // ŀ
    ]
}
