/// CloudKit's rules for record, zone and field names: ASCII, at most 255 characters.
package enum NameRules {
    /// The longest name CloudKit accepts, in characters.
    package static let maximumLength = 255

    /// Checks a record name: non-empty ASCII, at most 255 characters, not starting with `_`.
    package static func validateRecordName(_ name: String) throws(CloudKitError) {
        try validate(name, kind: "record name")
        if name.hasPrefix("_") {
            throw .badRequest("record name '\(name)' must not start with an underscore")
        }
    }

    /// Checks a zone name: non-empty ASCII, at most 255 characters.
    package static func validateZoneName(_ name: String) throws(CloudKitError) {
        try validate(name, kind: "zone name")
    }

    /// Checks a container identifier: `iCloud.` and a reverse-DNS name, as in
    /// `iCloud.com.example.app`: labels of ASCII letters, digits, `-` and `_` joined by single
    /// dots (no empty label, so no `..`), at most 255 characters. Paths are built from it
    /// (archives, `--export-on-exit`), so nothing else may pass.
    package static func validateContainerID(_ id: String) throws(CloudKitError) {
        let labels = id.split(separator: ".", omittingEmptySubsequences: false)
        guard id.utf8.count <= maximumLength, labels.count >= 2, labels[0] == "iCloud",
              labels.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { byte in
                  (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x5F
              } }) else {
            throw .badRequest("container identifiers are 'iCloud.' and a reverse-DNS name of letters, digits, '-' and '_', as in iCloud.com.example.app")
        }
    }

    /// Checks a field name or record type: non-empty ASCII, at most 255 characters.
    package static func validateFieldName(_ name: String, kind: String = "field name") throws(CloudKitError) {
        try validate(name, kind: kind)
    }

    private static func validate(_ name: String, kind: String) throws(CloudKitError) {
        if name.isEmpty { throw .badRequest("\(kind) must not be empty") }
        if name.utf8.count > maximumLength {
            throw .badRequest("\(kind) '\(name.prefix(32))…' is longer than \(maximumLength) characters")
        }
        if !name.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            throw .badRequest("\(kind) '\(name)' must contain printable ASCII characters only")
        }
    }
}
