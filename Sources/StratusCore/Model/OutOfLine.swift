/// Keeps an optional value that is large and seldom set out of line: the struct that holds it
/// carries one reference instead of the whole value, so copying it (into an array, an async
/// function's frame, a result) stays cheap when the value is absent.
///
/// A value is never changed in place: setting one allocates new storage, so copies share it safely.
@propertyWrapper
package struct OutOfLine<Wrapped: Sendable & Equatable>: Sendable, Equatable {
    private final class Storage: Sendable {
        let value: Wrapped
        init(_ value: Wrapped) { self.value = value }
    }

    private var storage: Storage?

    // Absent, no storage's type is looked up: `Optional.map(Storage.init)` asked the runtime for
    // `Storage<Wrapped>`'s metadata on every record made (1.2% of a records/modify's samples).
    package init(wrappedValue: Wrapped?) {
        if let wrappedValue { storage = Storage(wrappedValue) } else { storage = nil }
    }

    package var wrappedValue: Wrapped? {
        get { storage?.value }
        set { if let newValue { storage = Storage(newValue) } else { storage = nil } }
    }

    package static func == (lhs: OutOfLine, rhs: OutOfLine) -> Bool {
        lhs.storage === rhs.storage || lhs.wrappedValue == rhs.wrappedValue
    }
}
