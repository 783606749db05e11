import Crypto
import Foundation
import Testing
@testable import StratusServer

/// The nonces sealing uses (``NonceReserve``): drawn a block at a time, never handed out twice,
/// whoever draws them at once; what a ``Sealer`` seals with them opens.
@Suite struct NonceReserveTests {
    @Test func noNonceIsHandedOutTwiceAcrossBlocksAndTasks() async throws {
        // Blocks of three: the 4,000 nonces span 1,334 blocks, drawn by eight tasks at once.
        let reserve = NonceReserve(noncesPerBlock: 3)
        let drawn = try await withThrowingTaskGroup(of: [[UInt8]].self) { group in
            for _ in 0..<8 {
                group.addTask { try (0..<500).map { _ in try reserve.next().withUnsafeBytes { Array($0) } } }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(drawn.count == 4_000)
        #expect(drawn.allSatisfy { $0.count == NonceReserve.nonceSize })
        #expect(Set(drawn).count == drawn.count)
        // Random, not counted: no byte position is the same in every nonce.
        #expect((0..<NonceReserve.nonceSize).allSatisfy { place in Set(drawn.map { $0[place] }).count > 1 })
    }

    @Test func aSealerSealsEachValueUnderItsOwnNonceAndOpensIt() throws {
        let sealer = Sealer(scope: .user("_nonce-test"), key: SymmetricKey(size: .bits256))
        let context = sealer.context { $0.append(contentsOf: "record|title".utf8) }
        let plaintext = Array("the same words each time".utf8)
        var nonces: Set<[UInt8]> = []
        for _ in 0..<1_000 {
            let sealed = try sealer.seal(plaintext, in: context)
            #expect(sealed.hasPrefix(KeyVault.sealedPrefix))
            let combined = try #require(Data(base64Encoded: String(sealed.dropFirst(KeyVault.sealedPrefix.count))))
            nonces.insert(Array(combined.prefix(NonceReserve.nonceSize)))
            #expect(try Array(sealer.open(ArraySlice(sealed.utf8), in: context)) == plaintext)
        }
        #expect(nonces.count == 1_000)
    }
}
