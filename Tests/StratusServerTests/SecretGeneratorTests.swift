import Foundation
import Testing
@testable import StratusServer

@Suite struct SecretGeneratorTests {
    @Test func uuidsAreRandomVersion4() {
        var seen = Set<String>()
        for _ in 0..<1000 {
            let text = SecretGenerator.uuid()
            let uuid = UUID(uuidString: text)
            #expect(uuid?.uuidString == text, "\(text) is not a UUID in canonical form")
            let bytes = uuid.map { withUnsafeBytes(of: $0.uuid) { Array($0) } } ?? []
            #expect(bytes.count == 16 && bytes[6] >> 4 == 4, "\(text) is not version 4")
            #expect(bytes.count == 16 && bytes[8] >> 6 == 0b10, "\(text) does not have the RFC 4122 variant")
            seen.insert(text)
        }
        #expect(seen.count == 1000)
    }

    @Test func secretsHaveTheirLengthsAndDiffer() {
        let tokens = (0..<100).map { _ in SecretGenerator.apiToken() }
        #expect(tokens.allSatisfy { $0.count == 64 && $0.allSatisfy(\.isHexDigit) })
        #expect(Set(tokens).count == 100)
        #expect(Data(base64Encoded: SecretGenerator.webAuthToken())?.count == 32)
        let name = SecretGenerator.userRecordName()
        #expect(name.count == 33 && name.hasPrefix("_") && name.dropFirst().allSatisfy(\.isHexDigit))
    }

    /// Random bytes come in draws of up to 256: every size, below, at and across a draw's end, is
    /// filled to its last byte.
    @Test(arguments: [0, 1, 7, 12, 255, 256, 257, 3_072, 5_000])
    func randomBytesFillEverySize(_ count: Int) {
        let draws = (0..<4).map { _ in SecretGenerator.randomBytes(count) }
        #expect(draws.allSatisfy { $0.count == count })
        guard count >= 12 else { return }
        #expect(Set(draws).count == draws.count)
        // No stretch of 16 bytes is left as it was made (zeros): each 16-byte stretch, anywhere in
        // the four draws, holds a byte that is not zero.
        for draw in draws {
            for start in stride(from: 0, to: count, by: 16) {
                #expect(draw[start..<min(start + 16, count)].contains { $0 != 0 } || count - start < 8, "bytes \(start)... of \(count)")
            }
        }
    }
}
