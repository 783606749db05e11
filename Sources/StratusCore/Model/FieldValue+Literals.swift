import Foundation

// Literals and dates as field values, so `record["title"] = "Hello"`, `record["count"] = 3` and
// `record["due"] = .date(deadline)` read as they do with `CKRecord`.

extension FieldValue: ExpressibleByStringLiteral {
    /// A STRING field.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension FieldValue: ExpressibleByIntegerLiteral {
    /// An INT64 field.
    public init(integerLiteral value: Int64) { self = .int64(value) }
}

extension FieldValue: ExpressibleByFloatLiteral {
    /// A DOUBLE field.
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension FieldValue: ExpressibleByBooleanLiteral {
    /// An INT64 field of 1 or 0: CloudKit has no boolean type and stores a `Bool` as a number.
    public init(booleanLiteral value: Bool) { self = .int64(value ? 1 : 0) }
}

extension FieldValue {
    /// A TIMESTAMP field: the date to the millisecond, as CloudKit keeps it.
    public static func date(_ date: Date) -> FieldValue {
        .timestamp(Int64((date.timeIntervalSince1970 * 1000).rounded()))
    }

    /// The date of a TIMESTAMP field; nil for any other type.
    public var dateValue: Date? {
        if case .timestamp(let milliseconds) = self { Date(timeIntervalSince1970: Double(milliseconds) / 1000) } else { nil }
    }

    /// A STRING_LIST field.
    public static func strings(_ values: [String]) -> FieldValue { .list(.string, values.map(FieldValue.string)) }
}
