import StratusCore

/// CloudKit's `resultsLimit`: absent or 0 means the server's maximum; larger asks get the maximum.
enum ResultsLimit {
    static func resolve(_ requested: Int?, maximum: Int) throws(CloudKitError) -> Int {
        guard let requested, requested != 0 else { return maximum }
        guard requested > 0 else { throw .badRequest("resultsLimit must be positive") }
        return min(requested, maximum)
    }
}
