import Crypto
import CryptoExtras
import Foundation
import NIOPosix
import StratusCore
import Synchronization

/// Slow salted password hashing with scrypt, in a self-describing format:
/// `scrypt$<log2 N>$<r>$<p>$<salt base64>$<hash base64>`, so the cost can rise without breaking
/// old hashes.
///
/// Hashing runs on two threads of its own, off the event loops and apart from the pool file I/O
/// uses, so a sign-in flood cannot stall uploads. At most `maxQueued` hashes wait for them; more
/// are refused with `THROTTLED`.
struct PasswordHasher: Sendable {
    var log2Cost: Int
    /// The hashes computing or waiting for a thread.
    private let queued: Occupancy
    /// How many hashes were computed (or refused for load): a sign-in attempt costs exactly one,
    /// whatever the name it gives, so timing tells nothing about which accounts exist.
    let derivations = DerivationCount()

    /// A count shared by the copies of a hasher.
    final class DerivationCount: Sendable {
        private let count = Atomic<Int>(0)
        var value: Int { count.load(ordering: .relaxed) }
        func increment() { count.add(1, ordering: .relaxed) }
    }

    init(log2Cost: Int, maxQueued: Int = 64) {
        self.log2Cost = log2Cost
        queued = Occupancy(limit: maxQueued)
    }

    /// The hashing threads, shared by the servers of a process (a static pool is never deinited,
    /// as NIO requires of a pool that is not shut down).
    private static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 2)
        pool.start()
        return pool
    }()
    private static let blockSize = 8
    private static let parallelism = 1
    private static let outputBytes = 32

    func hash(_ password: String) async throws -> String {
        let salt = Data((0..<16).map { _ in UInt8.random(in: .min ... .max) })
        let key = try await derive(password, salt: salt, log2Cost: log2Cost, blockSize: Self.blockSize, parallelism: Self.parallelism)
        return "scrypt$\(log2Cost)$\(Self.blockSize)$\(Self.parallelism)$\(salt.base64EncodedString())$\(key.base64EncodedString())"
    }

    /// Whether `password` matches `stored`; compares in constant time.
    func verify(_ password: String, against stored: String) async throws -> Bool {
        let parts = stored.split(separator: "$")
        guard parts.count == 6, parts[0] == "scrypt", let log2Cost = Int(parts[1]), let blockSize = Int(parts[2]),
              let parallelism = Int(parts[3]), let salt = Data(base64Encoded: String(parts[4])),
              let expected = Data(base64Encoded: String(parts[5])) else {
            return false
        }
        let key = try await derive(password, salt: salt, log2Cost: log2Cost, blockSize: blockSize, parallelism: parallelism)
        return Self.constantTimeEquals(key, expected)
    }

    private func derive(_ password: String, salt: Data, log2Cost: Int, blockSize: Int, parallelism: Int) async throws -> Data {
        let outputBytes = Self.outputBytes
        derivations.increment()
        return try await queued.run(shedding: "too many sign-ins at once") {
            try await Self.pool.runIfActive {
                let key = try KDF.Scrypt.deriveKey(
                    from: Data(password.utf8), salt: salt, outputByteCount: outputBytes,
                    rounds: 1 << log2Cost, blockSize: blockSize, parallelism: parallelism,
                    maxMemory: 256 * 1024 * 1024)
                return key.withUnsafeBytes { Data($0) }
            }
        }
    }

    static func constantTimeEquals(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return zip(lhs, rhs).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
