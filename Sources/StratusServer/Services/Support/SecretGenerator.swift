import Crypto
import Foundation

/// Random identifiers and secrets, and the one-way digest under which secrets are stored.
package enum SecretGenerator {
    /// A web auth token: 32 random bytes (256 bits), base64 (it may contain `+`, `/` and `=`,
    /// like CloudKit's, which clients percent-encode).
    static func webAuthToken() -> String {
        Data(randomBytes(32)).base64EncodedString()
    }

    /// An API token in CloudKit's shape: 64 hexadecimal characters.
    static func apiToken() -> String { hex(randomBytes(32)) }

    /// An asset upload receipt: 64 hexadecimal characters, stored only as its digest.
    static func receipt() -> String { hex(randomBytes(32)) }

    /// A share's short GUID, the last part of its URL: 20 characters of base62 (about 119 bits).
    static func shortGUID() -> String {
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        var generator = SystemRandomNumberGenerator()
        return String((0..<20).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }

    /// A user record name in CloudKit's shape: `_` and 32 hexadecimal characters.
    static func userRecordName() -> String { "_" + hex(randomBytes(16)) }

    /// A code a person types from a mail: ten characters of an alphabet without look-alikes
    /// (no 0/O, 1/I/L), in two groups of five (`K7QXM-2PD9R`), about 49 bits, from the system's
    /// secure random source.
    static func typedCode() -> String {
        let alphabet = Array("23456789ABCDEFGHJKMNPQRSTUVWXYZ")
        var random = SystemRandomNumberGenerator()
        let characters = (0..<10).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] }
        return String(characters[0..<5]) + "-" + String(characters[5...])
    }

    /// The SHA-256 of a secret, hex-encoded: what is stored instead of the secret.
    static func digest(_ secret: String) -> String { hex(SHA256.hash(data: Data(secret.utf8))) }

    /// A random (version 4) UUID string, as in `X-Apple-Request-UUID` and notification IDs.
    ///
    /// Drawn from the system generator (`getrandom`): Foundation's `UUID()` opens and reads
    /// `/dev/urandom` on every call on Linux, a cost every request would pay.
    static func uuid() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = (generator.next(), generator.next())
        return withUnsafeMutableBytes(of: &bytes) { raw in
            raw[6] = raw[6] & 0x0F | 0x40   // version 4
            raw[8] = raw[8] & 0x3F | 0x80   // RFC 4122 variant
            return UUID(uuid: (raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
                               raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15])).uuidString
        }
    }

    /// Random bytes from the system's secure random source, in draws as large as the system
    /// allows (`getentropy`'s 256 bytes on Linux, `arc4random_buf`'s any number on Apple
    /// platforms): `SystemRandomNumberGenerator` draws eight bytes per call, a system call each on
    /// Linux.
    package static func randomBytes(_ count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var filled = 0
            #if canImport(Darwin)
            if let start = buffer.baseAddress {
                arc4random_buf(start, count)
                filled = count
            }
            #elseif canImport(Glibc)
            while filled < count {
                let draw = min(256, count - filled)
                guard getentropy(buffer.baseAddress! + filled, draw) == 0 else { break }
                filled += draw
            }
            #endif
            // Where the system has no such draw or it failed, the rest eight bytes at a time.
            var generator = SystemRandomNumberGenerator()
            while filled < count {
                withUnsafeBytes(of: generator.next() as UInt64) { random in
                    for byte in random.prefix(count - filled) {
                        buffer[filled] = byte
                        filled += 1
                    }
                }
            }
            initialized = count
        }
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
    }
}
