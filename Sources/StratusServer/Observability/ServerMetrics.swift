import Foundation
import Metrics
import Synchronization
import Prometheus
import StratusCore

/// The server's metrics: swift-metrics instruments, recorded into Prometheus's registry once a
/// server is configured with a metrics listener (``ServerConfiguration/metricsPort``), and served
/// there in Prometheus's text format, never on the API listener.
///
/// Instruments are made where they are recorded (a lookup in the registry), not kept: one made
/// before the metrics system was bootstrapped would stay a no-op. Without a metrics listener
/// nothing is recorded and no instrument is made.
///
/// What is recorded, besides Hummingbird's `hb_requests` (by route, method and status) and
/// `http_server_request_duration` (a histogram, same labels):
/// - `stratus_commit_duration` (histogram): each storage transaction with its fsync; `stratus_commit_writes` (histogram): the writes it carried;
/// - `stratus_write_queue_depth` (gauge): writes waiting for the writer;
/// - `stratus_records_written_total`, `stratus_records_served_total{via=lookup|query|changes}`;
/// - `stratus_push_connections` (gauge);
/// - `stratus_errors_total{code}`: answers with a CloudKit error, `THROTTLED` among them;
/// - `stratus_asset_bytes_total{direction=upload|download}`;
/// - `stratus_webhook_attempts_total{outcome=delivered|failed}`, `stratus_webhook_oldest_pending_seconds{endpoint}` (gauge);
/// - `stratus_access_log_dropped_total`: access log lines dropped while standard output's reader fell behind.
package enum ServerMetrics {
    private static let bootstrapped = Mutex<PrometheusCollectorRegistry?>(nil)

    /// Records swift-metrics into Prometheus's registry from now on (once per process; later
    /// servers of the process share it).
    static func bootstrap() {
        bootstrapped.withLock { registry in
            guard registry == nil else { return }
            let made = PrometheusCollectorRegistry()
            var factory = PrometheusMetricsFactory(registry: made)
            factory.nameAndLabelSanitizer = { name, labels in (sanitized(name), labels.map { (sanitized($0.0), $0.1) }) }
            factory.defaultDurationHistogramBuckets = [.milliseconds(1), .milliseconds(2.5), .milliseconds(5), .milliseconds(10),
                                                       .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
                                                       .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10)]
            factory.defaultValueHistogramBuckets = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]
            MetricsSystem.bootstrap(factory)
            registry = made
        }
    }

    /// Whether a server of this process serves metrics (else recordings are skipped).
    private static var isRecording: Bool { bootstrapped.withLock { $0 != nil } }

    /// The registry's metrics in Prometheus's text exposition format.
    static func exposition() -> [UInt8] {
        var buffer: [UInt8] = []
        bootstrapped.withLock { $0 }?.emit(into: &buffer)
        return buffer
    }

    /// Prometheus names allow `[a-zA-Z0-9_:]`: swift-metrics' dotted labels get underscores.
    private static func sanitized(_ name: String) -> String {
        String(name.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" ? $0 : "_" })
    }

    package static func committed(writes: Int, in duration: Duration) {
        guard isRecording else { return }
        Timer(label: "stratus_commit_duration", preferredDisplayUnit: .seconds).recordNanoseconds(Int64(duration / .nanoseconds(1)))
        Recorder(label: "stratus_commit_writes").record(writes)
    }

    package static func writeQueue(depth: Int) {
        guard isRecording else { return }
        Gauge(label: "stratus_write_queue_depth").record(depth)
    }

    static func accessLogLineDropped() {
        guard isRecording else { return }
        Counter(label: "stratus_access_log_dropped_total").increment()
    }

    static func mailSent() {
        guard isRecording else { return }
        Counter(label: "stratus_mail_sent_total").increment()
    }

    /// A mail given up after 24 hours of failed tries.
    static func mailDropped() {
        guard isRecording else { return }
        Counter(label: "stratus_mail_dropped_total").increment()
    }

    /// A device deleted more than half of a zone within a minute (``LossAlarm``).
    static func lossAlarmRaised() {
        guard isRecording else { return }
        Counter(label: "stratus_loss_alarms_total").increment()
    }

    /// A webhook delivery attempt, by outcome (`delivered`: a 2xx; `failed`: anything else).
    static func webhookAttempt(delivered: Bool) {
        guard isRecording else { return }
        Counter(label: "stratus_webhook_attempts_total", dimensions: [("outcome", delivered ? "delivered" : "failed")]).increment()
    }

    /// How long the oldest event an endpoint has not passed has waited since its commit (0 when
    /// it is through).
    static func webhookOldestPending(seconds: Double, endpointID: String) {
        guard isRecording else { return }
        Gauge(label: "stratus_webhook_oldest_pending_seconds", dimensions: [("endpoint", endpointID)]).record(seconds)
    }

    static func recordsWritten(_ count: Int) {
        guard count > 0, isRecording else { return }
        Counter(label: "stratus_records_written_total").increment(by: count)
    }

    enum Feed: String { case lookup, query, changes }

    static func recordsServed(_ count: Int, via feed: Feed) {
        guard count > 0, isRecording else { return }
        Counter(label: "stratus_records_served_total", dimensions: [("via", feed.rawValue)]).increment(by: count)
    }

    enum ReadAheadOutcome: String { case used, stale }

    /// A page of changes read ahead (``ChangeReadAhead``) was asked for: used, or read again
    /// because the zone changed after it was read.
    static func changePageReadAhead(_ outcome: ReadAheadOutcome) {
        guard isRecording else { return }
        Counter(label: "stratus_change_pages_read_ahead_total", dimensions: [("outcome", outcome.rawValue)]).increment()
    }

    static func pushConnections(_ count: Int) {
        guard isRecording else { return }
        Gauge(label: "stratus_push_connections").record(count)
    }

    static func answered(_ code: ServerErrorCode) {
        guard isRecording else { return }
        Counter(label: "stratus_errors_total", dimensions: [("code", code.rawValue)]).increment()
    }

    enum Direction: String { case upload, download }

    static func assetBytes(_ count: Int64, _ direction: Direction) {
        guard count > 0, isRecording else { return }
        Counter(label: "stratus_asset_bytes_total", dimensions: [("direction", direction.rawValue)]).increment(by: Int(count))
    }
}
