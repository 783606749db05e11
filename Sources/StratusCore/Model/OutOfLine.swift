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

    package init(wrappedValue: Wrapped?) {
        storage = wrappedValue.map(Storage.init)
    }

    package var wrappedValue: Wrapped? {
        get { storage?.value }
        set { storage = newValue.map(Storage.init) }
    }

    package static func == (lhs: OutOfLine, rhs: OutOfLine) -> Bool {
        lhs.storage === rhs.storage || lhs.wrappedValue == rhs.wrappedValue
    }
}
