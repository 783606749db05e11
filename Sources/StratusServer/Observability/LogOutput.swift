import Foundation
import Synchronization

/// Standard output for the access log, written by a thread of its own (for the life of the
/// process) so that no request waits on it: a request appends its line to a buffer and goes on;
/// the thread writes what gathered.
///
/// When the reader of standard output falls behind (a slow terminal, a stalled journald) the
/// buffer is bounded: past ``capacity`` bytes further lines are dropped and counted (metric
/// `stratus_access_log_dropped_total`, and a line saying how many once there is room again).
/// Lines that matter to security — sign-in failures, refusals, throttling — are never dropped.
final class LogOutput: Sendable {
    static let standardOutput = LogOutput(handle: .standardOutput)

    /// How many bytes may wait before ordinary lines are dropped.
    static let capacity = 1024 * 1024

    private struct State {
        var pending: [String] = []
        var bytes = 0
        var dropped = 0
    }

    private let state = Mutex(State())
    /// Signalled when lines are added.
    private let wakeUp = NSCondition()
    private let handle: FileHandle

    init(handle: FileHandle) {
        self.handle = handle
        let thread = Thread { [self] in self.run() }
        thread.name = "stratus-log-output"
        thread.start()
    }

    /// Queues a line (without its newline); `keep` lines are queued even past the capacity.
    func write(_ line: String, keep: Bool) {
        let queued = state.withLock { state -> Bool in
            guard keep || state.bytes < Self.capacity else {
                state.dropped += 1
                return false
            }
            state.pending.append(line)
            state.bytes += line.utf8.count + 1
            return true
        }
        if queued {
            wakeUp.lock()
            wakeUp.signal()
            wakeUp.unlock()
        } else {
            ServerMetrics.accessLogLineDropped()
        }
    }

    /// Writes what gathered, for ever; blocking on the output happens here only.
    private func run() {
        while true {
            wakeUp.lock()
            while state.withLock({ $0.pending.isEmpty }) { wakeUp.wait() }
            wakeUp.unlock()
            let (lines, dropped) = state.withLock { state -> ([String], Int) in
                defer {
                    state.pending.removeAll(keepingCapacity: true)
                    state.bytes = 0
                    state.dropped = 0
                }
                return (state.pending, state.dropped)
            }
            var text = lines.joined(separator: "\n") + "\n"
            if dropped > 0 { text += "{\"dropped\":\(dropped),\"reason\":\"the log's reader fell behind\"}\n" }
            handle.write(Data(text.utf8))
        }
    }
}
