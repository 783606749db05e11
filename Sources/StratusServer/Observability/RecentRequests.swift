import Foundation
import Synchronization

/// The requests this server answered lately, for the console's activity page: the newest
/// ``capacity`` with their client address, redacted path, status and duration, and the rates, errors and
/// latencies they add up to. ``AccessLog`` notes every request here, whatever the log level
/// (a lock and a ring buffer: nothing is formatted until a page asks).
package final class RecentRequests: Sendable {
    package struct Request: Sendable {
        package var time: Date
        /// The client's address (``StratusRequestContext/clientAddress``).
        package var client: String
        package var method: String
        /// The URI as the access log writes it (``AccessLog/redacted(_:)``), made when shown.
        package var uri: String
        package var status: Int
        package var milliseconds: Double
    }

    /// Requests in a span of time: how many, how many failed, and their latency.
    package struct Summary: Sendable, Equatable {
        package var seconds: Int
        package var requests: Int
        package var clientErrors: Int
        package var serverErrors: Int
        package var p50Milliseconds: Double
        package var p99Milliseconds: Double
        package var perSecond: Double { Double(requests) / Double(seconds) }
    }

    package static let capacity = 2_000

    private struct Ring {
        var items: [Request] = []
        var next = 0
    }

    private let ring = Mutex(Ring())

    package init() {}

    func note(_ request: Request) {
        ring.withLock { ring in
            if ring.items.count < Self.capacity {
                ring.items.append(request)
            } else {
                ring.items[ring.next] = request
                ring.next = (ring.next + 1) % Self.capacity
            }
        }
    }

    /// The kept requests, newest first.
    package func newest(_ count: Int) -> [Request] {
        ring.withLock { ring in
            let ordered = Array(ring.items[ring.next...] + ring.items[..<ring.next])
            return Array(ordered.suffix(count).reversed())
        }
    }

    /// The kept requests of the last `seconds`, summed up.
    package func summary(lastSeconds seconds: Int, now: Date = Date()) -> Summary {
        let since = now.addingTimeInterval(-Double(seconds))
        let requests = ring.withLock { $0.items.filter { $0.time >= since } }
        let latencies = requests.map(\.milliseconds).sorted()
        func percentile(_ fraction: Double) -> Double {
            latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * fraction))]
        }
        return Summary(seconds: seconds, requests: requests.count, clientErrors: requests.count { (400..<500).contains($0.status) },
                       serverErrors: requests.count { $0.status >= 500 }, p50Milliseconds: percentile(0.5), p99Milliseconds: percentile(0.99))
    }
}
