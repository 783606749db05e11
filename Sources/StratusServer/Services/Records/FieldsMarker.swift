import Foundation

/// A byte string that only a certain kind of field can put into stored fields JSON, found without
/// parsing it: a string value's quotes are escaped, so a marker that holds one cannot occur inside
/// a value.
struct FieldsMarker: Sendable {
    private let needle: [UInt8]
    /// The offset of the byte the search jumps between with memchr: one rare in field JSON
    /// (unlike `"`), around which the whole marker is compared.
    private let pivot: Int

    init(_ text: String, pivot: Character) {
        needle = Array(text.utf8)
        self.pivot = needle.firstIndex(of: pivot.asciiValue!)!
    }

    /// The marker's length in bytes.
    var count: Int { needle.count }

    /// Whether the marker occurs in `json`.
    func occurs(in json: [UInt8]) -> Bool {
        firstOccurrence(in: json, from: 0) != nil
    }

    /// Where the marker first occurs in `json` at or after `start`.
    func firstOccurrence(in json: [UInt8], from start: Int) -> Int? {
        guard json.count - start >= needle.count else { return nil }
        return json.withUnsafeBytes { bytes in
            needle.withUnsafeBytes { needle in
                guard let base = bytes.baseAddress, let needleBase = needle.baseAddress else { return nil }
                var offset = start + pivot
                let last = bytes.count - needle.count + pivot
                while offset <= last, let found = memchr(base + offset, Int32(needle[pivot]), last - offset + 1) {
                    let position = base.distance(to: UnsafeRawPointer(found))
                    if memcmp(base + position - pivot, needleBase, needle.count) == 0 { return position - pivot }
                    offset = position + 1
                }
                return nil
            }
        }
    }
}
