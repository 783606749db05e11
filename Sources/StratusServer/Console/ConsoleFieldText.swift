import StratusCore

/// How the console shows field values and reads them back from a form: each type's name as the
/// schema language spells it, a value as text, and the types a form edits (strings, numbers,
/// timestamps in milliseconds, references by record name).
enum ConsoleFieldText {
    /// `STRING`, `INT64`, …, `LIST<STRING>`.
    static func typeName(_ value: FieldValue) -> String {
        switch value.type {
        case .scalar(let scalar): scalar.rawValue
        case .list(let element): "LIST<\(element.rawValue)>"
        }
    }

    /// A value as a person reads it (a timestamp as a date, an asset by its size).
    static func display(_ value: FieldValue) -> String {
        switch value {
        case .string(let text): text
        case .int64(let number): String(number)
        case .double(let number): String(number)
        case .timestamp(let milliseconds): ConsoleRoutes.date(milliseconds)
        case .bytes(let data): "\(data.count) bytes"
        case .reference(let reference): reference.recordName
        case .location(let location): "\(location.latitude), \(location.longitude)"
        case .asset(let asset): "file of \(asset.size ?? 0) bytes"
        case .list(_, let elements): "[" + elements.map(display).joined(separator: ", ") + "]"
        }
    }

    /// A value as its form field holds it (a timestamp in milliseconds).
    static func editableText(_ value: FieldValue) -> String {
        switch value {
        case .timestamp(let milliseconds): String(milliseconds)
        default: display(value)
        }
    }

    /// A field's value from its text in a form, for the types the form edits.
    static func value(_ text: String, type: String, previous: FieldValue?) throws -> FieldValue {
        switch type {
        case "STRING": return .string(text)
        case "INT64", "TIMESTAMP":
            guard let number = Int64(text) else { throw ConsoleInputError("'\(text)' is not a whole number") }
            return type == "INT64" ? .int64(number) : .timestamp(number)
        case "DOUBLE":
            guard let number = Double(text), number.isFinite else { throw ConsoleInputError("'\(text)' is not a number") }
            return .double(number)
        case "REFERENCE":
            var reference = Reference(recordName: text)
            if case .reference(let old)? = previous { reference.action = old.action; reference.zoneID = old.zoneID }
            return .reference(reference)
        default:
            throw ConsoleInputError("\(type) fields are not edited here")
        }
    }
}

/// A value a form gave that its field cannot take.
struct ConsoleInputError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
