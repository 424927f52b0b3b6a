import XCTest
@testable import GTFS

final class NameNormalizerTests: XCTestCase {
    func testRemovesMarksAndLowercases() {
        XCTAssertEqual(NameNormalizer.normalize("U Görlitzer Bahnhof"), "u gorlitzer bahnhof")
        XCTAssertEqual(NameNormalizer.normalize("Gare de Compiègne"), "gare de compiegne")
        XCTAssertEqual(NameNormalizer.normalize("Bijūnų st."), "bijunu st.")
        XCTAssertEqual(NameNormalizer.normalize("ÉLYSÉE"), "elysee")
    }

    func testFoldsLettersWithoutDecomposition() {
        let cases = ["Łódź": "lodz", "Ørestad": "orestad", "Đakovo": "dakovo", "Ðorð": "dord", "Straße": "strasse",
                     "Æbeltoft": "aebeltoft", "Œuvre": "oeuvre", "Işık": "isik", "Þingvellir": "thingvellir",
                     "Ħamrun": "hamrun", "Paral·lel": "paral·lel", "ŀ": "l", "İstanbul": "istanbul"]
        for (input, expected) in cases {
            XCTAssertEqual(NameNormalizer.normalize(input), expected, input)
        }
    }

    func testRecomposesWhatIsLeft() {
        // Hangul decomposes under NFD and has no marks to remove; NFC puts it back together.
        XCTAssertEqual(NameNormalizer.normalize("서울역"), "서울역")
        XCTAssertEqual(NameNormalizer.normalize("서울역").unicodeScalars.count, 3)
    }

    func testWordsAreRunsOfLettersAndDigits() {
        XCTAssertEqual(NameNormalizer.words(of: "O'Hara's Corner (Nord) 12b"), ["o", "hara", "s", "corner", "nord", "12b"])
        XCTAssertEqual(NameNormalizer.words(of: "Marktplatz, Nord"), ["marktplatz", "nord"])
        XCTAssertEqual(NameNormalizer.words(of: "--- / ---"), [])
    }
}
