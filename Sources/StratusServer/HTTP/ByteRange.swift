import Foundation

/// A request's `Range` header as RFC 9110 §14 reads it, for one range of bytes: `bytes=0-499`,
/// `bytes=500-`, `bytes=-500` (the last 500). Several ranges, another unit or text that does not
/// parse are no range at all (the whole file is served, as the RFC allows).
struct ByteRange: Equatable {
    enum Form: Equatable {
        case from(Int64, through: Int64?)
        case suffix(Int64)
    }

    let form: Form

    init?(header: String) {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        if parts[0].isEmpty {
            guard let count = Self.number(parts[1]) else { return nil }
            form = .suffix(count)
        } else {
            guard let first = Self.number(parts[0]) else { return nil }
            if parts[1].isEmpty {
                form = .from(first, through: nil)
            } else {
                guard let last = Self.number(parts[1]), last >= first else { return nil }
                form = .from(first, through: last)
            }
        }
    }

    /// The bytes it asks for of a file of `size` bytes, clamped to it; nil when none of them exist
    /// (`416 Range Not Satisfiable`).
    func bytes(ofSize size: Int64) -> ClosedRange<Int64>? {
        switch form {
        case .from(let first, let last):
            guard first < size else { return nil }
            return first...min(last ?? size - 1, size - 1)
        case .suffix(let count):
            guard count > 0, size > 0 else { return nil }
            return max(0, size - count)...(size - 1)
        }
    }

    /// Digits only, at most 18 of them (no sign, no overflow).
    private static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.count <= 18, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int64(text)
    }
}
