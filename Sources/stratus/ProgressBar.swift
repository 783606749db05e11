import Foundation
import StratusServer
import Synchronization

/// Draws a transfer's progress on standard error: a bar redrawn in place on a terminal, and a
/// line per step (and its end) when standard error is a file or a pipe.
final class ProgressBar: Sendable {
    private let isTerminal = isatty(STDERR_FILENO) == 1
    /// The step shown and its percentage.
    private let shown = Mutex((step: "", percent: -1))

    /// Shows `progress`; safe to call from any thread.
    func show(_ progress: TransferProgress) {
        shown.withLock { shown in
            let percent = progress.total == 0 ? 100 : min(100, progress.done * 100 / progress.total)
            let isNewStep = progress.step != shown.step
            if isNewStep, isTerminal, !shown.step.isEmpty { write("\n") }
            guard isNewStep || percent != shown.percent else { return }
            shown = (progress.step, percent)
            if isTerminal {
                let width = 30
                let filled = percent * width / 100
                let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
                write("\r\(progress.step) [\(bar)] \(percent)% \(progress.done)/\(progress.total)" + (percent == 100 ? "\n" : ""))
            } else if isNewStep || percent == 100 {
                write("\(progress.step): \(progress.done)/\(progress.total)\n")
            }
        }
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
