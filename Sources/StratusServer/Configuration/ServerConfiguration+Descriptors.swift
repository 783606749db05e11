#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ServerConfiguration {
    /// The push connections all users may hold at once: ``maxPushConnections``, or what the
    /// process's file-descriptor limit leaves once the requests in flight, the database
    /// connections and the listeners and files have theirs (at least 64).
    public var pushConnectionLimit: Int {
        if let maxPushConnections { return maxPushConnections }
        let reserved = maxRequestsInFlight + databaseConnections + 128
        return max(64, Self.fileDescriptorLimit() - reserved)
    }

    /// The soft `RLIMIT_NOFILE` (1,024 where it cannot be read, at most a million).
    static func fileDescriptorLimit() -> Int {
        var limit = rlimit()
        #if canImport(Glibc)
        let read = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        #else
        let read = getrlimit(RLIMIT_NOFILE, &limit)
        #endif
        guard read == 0 else { return 1024 }
        // RLIM_INFINITY is the largest value on every platform: counted as a million.
        return Int(clamping: min(limit.rlim_cur, 1 << 20))
    }
}
