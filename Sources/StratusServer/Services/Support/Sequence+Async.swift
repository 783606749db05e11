/// The sequence operations services apply with storage calls in their closures, which are
/// asynchronous (a network database suspends between statements). Each runs its closure on one
/// element at a time, in order, as the synchronous operations do.
extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        results.reserveCapacity(underestimatedCount)
        for element in self { results.append(try await transform(element)) }
        return results
    }

    func asyncCompactMap<T>(_ transform: (Element) async throws -> T?) async rethrows -> [T] {
        var results: [T] = []
        for element in self {
            if let result = try await transform(element) { results.append(result) }
        }
        return results
    }

    func asyncFilter(_ isIncluded: (Element) async throws -> Bool) async rethrows -> [Element] {
        var results: [Element] = []
        for element in self where try await isIncluded(element) { results.append(element) }
        return results
    }

    func asyncContains(where predicate: (Element) async throws -> Bool) async rethrows -> Bool {
        for element in self where try await predicate(element) { return true }
        return false
    }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }

    func asyncFlatMap<T>(_ transform: (Wrapped) async throws -> T?) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
