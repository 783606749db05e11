import Foundation

/// The value of one record field, typed as CloudKit types it.
///
/// Timestamps are milliseconds since 1970 (as on the wire); bytes travel as base64. A list holds
/// values of its one element type.
public enum FieldValue: Sendable, Hashable {
    case string(String)
    case int64(Int64)
    case double(Double)
    /// Milliseconds since 1970-01-01 UTC.
    case timestamp(Int64)
    case bytes(Data)
    // The three large payloads are boxed, so a value is the size of a string: field values are
    // copied at every step of a save, and copying the widest case's bytes each time cost more
    // than the boxes do.
    indirect case reference(Reference)
    indirect case location(Location)
    indirect case asset(Asset)
    /// A list whose elements are all of the given scalar type.
    case list(ScalarType, [FieldValue])

    /// The field's type.
    public var type: FieldType {
        switch self {
        case .string: .scalar(.string)
        case .int64: .scalar(.int64)
        case .double: .scalar(.double)
        case .timestamp: .scalar(.timestamp)
        case .bytes: .scalar(.bytes)
        case .reference: .scalar(.reference)
        case .location: .scalar(.location)
        case .asset: .scalar(.asset)
        case .list(let element, _): .list(element)
        }
    }

    /// The references this value holds: the value itself, or a reference list's elements.
    public var references: [Reference] {
        switch self {
        case .reference(let reference): [reference]
        case .list(.reference, let elements): elements.flatMap(\.references)
        default: []
        }
    }

    /// The assets this value holds: the value itself, or an asset list's elements.
    public var assets: [Asset] {
        switch self {
        case .asset(let asset): [asset]
        case .list(.asset, let elements): elements.flatMap(\.assets)
        default: []
        }
    }

    /// The value with each asset it holds replaced by `transform`'s result.
    public func mappingAssets(_ transform: (Asset) throws -> Asset) rethrows -> FieldValue {
        switch self {
        case .asset(let asset): .asset(try transform(asset))
        case .list(.asset, let elements): .list(.asset, try elements.map { try $0.mappingAssets(transform) })
        default: self
        }
    }
}
