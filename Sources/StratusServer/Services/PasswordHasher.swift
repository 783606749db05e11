import Crypto
import CryptoExtras
import Foundation
import NIOPosix

/// Slow salted password hashing with scrypt, in a self-describing format:
/// `scrypt$<log2 N>$<r>$<p>$<salt base64>$<hash base64>`, so the cost can rise without breaking
/// old hashes. Hashing runs on NIO's blocking thread pool, off the event loops.
struct PasswordHasher: Sendable {
    var log2Cost: Int
    private static let blockSize = 8
    private static let parallelism = 1
    private static let outputBytes = 32

    func hash(_ password: String) async throws -> String {
        let salt = Data((0..<16).map { _ in UInt8.random(in: .min ... .max) })
        let key = try await Self.derive(password, salt: salt, log2Cost: log2Cost, blockSize: Self.blockSize, parallelism: Self.parallelism)
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
        let key = try await Self.derive(password, salt: salt, log2Cost: log2Cost, blockSize: blockSize, parallelism: parallelism)
        return Self.constantTimeEquals(key, expected)
    }

    private static func derive(_ password: String, salt: Data, log2Cost: Int, blockSize: Int, parallelism: Int) async throws -> Data {
        try await NIOThreadPool.singleton.runIfActive {
            let key = try KDF.Scrypt.deriveKey(
                from: Data(password.utf8), salt: salt, outputByteCount: outputBytes,
                rounds: 1 << log2Cost, blockSize: blockSize, parallelism: parallelism,
                maxMemory: 256 * 1024 * 1024)
            return key.withUnsafeBytes { Data($0) }
        }
    }

    static func constantTimeEquals(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return zip(lhs, rhs).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
