import Foundation

/// Standard output for the access log, written by a thread of its own (for the life of the
/// process) so that no request waits on it: a request appends its line to a buffer and goes on;
/// the thread writes what gathered.
///
/// When the reader of standard output falls behind (a slow terminal, a stalled journald) the
/// buffer is bounded: past ``capacity`` bytes further lines are dropped and counted (metric
/// `stratus_access_log_dropped_total`, and a line saying how many once there is room again).
/// Lines that matter to security — sign-in failures, refusals, throttling — are never dropped.
final class LogOutput: @unchecked Sendable {
    static let standardOutput = LogOutput(handle: .standardOutput)

    /// How many bytes may wait before ordinary lines are dropped.
    static let capacity = 1024 * 1024

    private struct State {
        var pending: [String] = []
        var bytes = 0
        var dropped = 0
    }

    /// Guards `state`, and wakes the writing thread when a line is added.
    private let condition = NSCondition()
    private var state = State()
    private let handle: FileHandle

    init(handle: FileHandle) {
        self.handle = handle
        let thread = Thread { [self] in self.run() }
        thread.name = "stratus-log-output"
        thread.start()
    }

    /// Queues a line (without its newline); `keep` lines are queued even past the capacity.
    func write(_ line: String, keep: Bool) {
        condition.lock()
        let queued = keep || state.bytes < Self.capacity
        if queued {
            state.pending.append(line)
            state.bytes += line.utf8.count + 1
            condition.signal()
        } else {
            state.dropped += 1
        }
        condition.unlock()
        if !queued { ServerMetrics.accessLogLineDropped() }
    }

    /// Writes what gathered, for ever; blocking on the output happens here only.
    private func run() {
        while true {
            condition.lock()
            while state.pending.isEmpty { condition.wait() }
            let (lines, dropped) = (state.pending, state.dropped)
            state = State()
            condition.unlock()
            var text = lines.joined(separator: "\n") + "\n"
            if dropped > 0 { text += "{\"dropped\":\(dropped),\"reason\":\"the log's reader fell behind\"}\n" }
            handle.write(Data(text.utf8))
        }
    }
}
