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
