import Crypto
import Synchronization

/// Random AES-GCM nonces for ``Sealer``, drawn from the system's secure random source a block at a
/// time (``SecretGenerator/randomBytes(_:)``): `AES.GCM.seal` without a nonce asks the random source
/// for each one (two system calls on Linux for 12 bytes), about a quarter of what a seal cost.
/// Every byte of a block is handed out once, under a lock, and a spent block is replaced by fresh
/// random bytes, never reused: the nonces are as random, and as unlikely to repeat under one key,
/// as the random source's own.
final class NonceReserve: Sendable {
    /// The reserve every sealer draws from.
    static let shared = NonceReserve()

    /// The bytes of one nonce (AES-GCM's 96 bits).
    static let nonceSize = 12

    /// Nonces drawn from the random source at a time.
    let noncesPerBlock: Int

    private struct Block {
        var bytes: [UInt8] = []
        /// Where the next nonce starts; `bytes.count` when the block is spent.
        var next = 0
    }

    private let block = Mutex(Block())

    init(noncesPerBlock: Int = 256) {
        precondition(noncesPerBlock > 0)
        self.noncesPerBlock = noncesPerBlock
    }

    /// A nonce no other call returned.
    func next() throws -> AES.GCM.Nonce {
        let bytes = block.withLock { block in
            if block.next == block.bytes.count {
                block.bytes = SecretGenerator.randomBytes(Self.nonceSize * noncesPerBlock)
                block.next = 0
            }
            defer { block.next += Self.nonceSize }
            return block.bytes[block.next..<block.next + Self.nonceSize]
        }
        return try AES.GCM.Nonce(data: bytes)
    }
}
