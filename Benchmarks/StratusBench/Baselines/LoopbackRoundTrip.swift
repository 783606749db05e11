import AsyncHTTPClient

/// Baselines for requests: the median round trip, in milliseconds, of a GET to `url` over
/// loopback, one request at a time. Against an unknown path it measures the HTTP stack alone;
/// against `/healthz`, the cheapest request the server answers with a body of its own.
///
/// A frozen baseline: `scripts/check-benchmarks.sh` refuses a commit that changes it together
/// with `Sources/`.
enum LoopbackRoundTrip {
    static func medianMilliseconds(_ url: String, requests: Int = 500) async throws -> Double {
        var samples: [Double] = []
        for _ in 0..<requests {
            samples.append(try await Stopwatch.seconds {
                let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
                _ = try await response.body.collect(upTo: 1024)
            } * 1000)
        }
        return median(samples)
    }
}
