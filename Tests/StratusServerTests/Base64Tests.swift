import Foundation
import Testing
@testable import StratusServer

@Suite struct Base64Tests {
    /// Foundation's base64 with the URL alphabet and no padding: what the hand-written codec must equal.
    static func reference(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    @Test func encodesAndDecodesAsFoundationDoes() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...70 {
            for _ in 0..<20 {
                let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                let text = Base64URL.encode(Data(bytes))
                #expect(text == Self.reference(bytes))
                #expect(Base64URL.decode(text).map(Array.init) == bytes)
                // Padding, as other encoders write it, reads the same.
                let padded = text + String(repeating: "=", count: (4 - text.count % 4) % 4)
                #expect(Base64URL.decode(padded).map(Array.init) == bytes)
            }
        }
        #expect(Base64URL.encode(Data([0xFB, 0xFF])) == "-_8")
    }

    @Test func refusesWhatIsNotBase64URL() {
        for text in ["A", "AAAAA", "AB+C", "AB/C", "A B=", "AA=", "A===", "AB==C", "é", "AB\u{0}C",
                     "AB",  // 'B' leaves bits over that are not zero: "AA" is the one text of [0x00]
                     "AAB"] {
            #expect(Base64URL.decode(text) == nil, "\(text)")
        }
        #expect(Base64URL.decode("") == Data())
        #expect(Base64URL.decode("AA") == Data([0]))
    }

    @Test func decodesStandardBase64AsFoundationWritesIt() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...70 {
            for _ in 0..<20 {
                let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                let text = Data(bytes).base64EncodedString()
                #expect(Base64Decoder.standard.decode(text).map(Array.init) == bytes)
                #expect(Base64Decoder.standard.decode(ArraySlice(text.utf8)).map(Array.init) == bytes)
            }
        }
    }

    /// Groups of four characters are decoded together: a character outside the alphabet is
    /// refused in every place of a group, and in the last characters after them.
    @Test func refusesAForeignCharacterAnywhere() {
        let url = Array(Base64URL.encode(bytes: Array(0..<32 as Range<UInt8>)).utf8)   // 43 characters: 10 groups and 3 more
        let standard = Array(Data(0..<32 as Range<UInt8>).base64EncodedString().utf8)  // 44: the last group padded
        for foreign in [UInt8(ascii: "*"), UInt8(ascii: "."), 0x80, 0xFF] {
            for position in url.indices {
                var text = url
                text[position] = foreign
                #expect(Base64Decoder.url.decode(ArraySlice(text)) == nil, "\(position)")
            }
            for position in standard.indices {
                var text = standard
                text[position] = foreign
                #expect(Base64Decoder.standard.decode(ArraySlice(text)) == nil, "\(position)")
            }
        }
    }

    @Test func refusesWhatIsNotPaddedStandardBase64() {
        for text in ["AA", "AAA", "AB-C", "AB_C", "A===", "AB=C", "=AAA", "AB==AAAA", "AB\u{0}C",
                     "AB==",  // 'B' leaves bits over that are not zero: "AA==" is the one text of [0x00]
                     "AAB="] {
            #expect(Base64Decoder.standard.decode(text) == nil, "\(text)")
        }
        #expect(Base64Decoder.standard.decode("") == Data())
        #expect(Base64Decoder.standard.decode("AA==") == Data([0]))
        #expect(Base64Decoder.standard.decode("+/8=") == Data([0xFB, 0xFF]))
    }
}
