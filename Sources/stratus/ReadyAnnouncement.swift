import Foundation
import StratusServer
import Synchronization

/// Tells whoever started `stratus serve` that it is ready: the banner for people, or with
/// `--ready-json` one ``ServerReadyLine``, printed once the API listens and, with metrics asked
/// for, once they are served too (the two listeners start in either order).
final class ReadyAnnouncement: Sendable {
    private let scheme: String
    private let host: String
    private let container: String
    private let apiToken: String
    private let json: Bool
    private let waitsForMetrics: Bool
    private let ports = Mutex<(api: Int?, metrics: Int?, announced: Bool)>((nil, nil, false))

    init(scheme: String, host: String, container: String, apiToken: String, json: Bool, waitsForMetrics: Bool) {
        (self.scheme, self.host, self.container, self.apiToken) = (scheme, host, container, apiToken)
        (self.json, self.waitsForMetrics) = (json, waitsForMetrics)
    }

    func apiListens(on port: Int) {
        if !json { print("Stratus is running at \(scheme)://\(host):\(port)\ncontainer: \(container)\nckAPIToken: \(apiToken)\n") }
        ports.withLock { $0.api = port }
        announceIfReady()
    }

    func metricsListen(on port: Int) {
        if !json { print("metrics at \(metricsURL(port))\n") }
        ports.withLock { $0.metrics = port }
        announceIfReady()
    }

    private func metricsURL(_ port: Int) -> String { "http://\(host):\(port)/metrics" }

    private func announceIfReady() {
        guard json else { return }
        let ready: ServerReadyLine? = ports.withLock { state in
            guard !state.announced, let api = state.api, !waitsForMetrics || state.metrics != nil else { return nil }
            state.announced = true
            return ServerReadyLine(url: "\(scheme)://\(host):\(api)", container: container, ckAPIToken: apiToken,
                                   metricsURL: state.metrics.map(metricsURL))
        }
        if let ready { print(ready.line) }
    }

    /// One write, so that a reader never sees half of it.
    private func print(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
