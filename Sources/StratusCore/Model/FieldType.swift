/// The type of a single (non-list) field value, spelled as CloudKit spells it on the wire.
public enum ScalarType: String, Codable, Sendable, CaseIterable {
    case string = "STRING"
    case int64 = "INT64"
    case double = "DOUBLE"
    case timestamp = "TIMESTAMP"
    case bytes = "BYTES"
    case reference = "REFERENCE"
    case location = "LOCATION"
    /// Written as `ASSET`, returned as `ASSETID` (as CloudKit does).
    case asset = "ASSET"

    /// Whether a field of this type may be encrypted (`ENCRYPTED STRING`): every type but a
    /// reference, which the server must read, and an asset.
    public var isEncryptable: Bool { self != .reference && self != .asset }
}

/// The `type` of a record field: a scalar type or a list of one (`STRING_LIST`, …).
public enum FieldType: Sendable, Hashable, CustomStringConvertible {
    case scalar(ScalarType)
    case list(ScalarType)

    /// Parses a wire type string. `ASSETID` reads as `ASSET`; the bare `LIST` is a list whose
    /// element type is inferred from its values, returned as `nil` element here.
    public init?(wireName: String) {
        if wireName == "ASSETID" { self = .scalar(.asset); return }
        if let scalar = ScalarType(rawValue: wireName) { self = .scalar(scalar); return }
        guard wireName.hasSuffix("_LIST") else { return nil }
        let base = String(wireName.dropLast(5))
        if base == "ASSETID" { self = .list(.asset); return }
        guard let scalar = ScalarType(rawValue: base) else { return nil }
        self = .list(scalar)
    }

    /// The spelling used in responses (`ASSETID` for assets, as fetched records carry it).
    public var wireName: String {
        switch self {
        case .scalar(.asset): "ASSETID"
        case .scalar(let scalar): scalar.rawValue
        case .list(.asset): "ASSETID_LIST"
        case .list(let scalar): scalar.rawValue + "_LIST"
        }
    }

    public var description: String { wireName }
}
