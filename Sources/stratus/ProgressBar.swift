import Foundation
import StratusServer

/// Draws a transfer's progress on standard error: a bar redrawn in place on a terminal, and a
/// line per step (and its end) when standard error is a file or a pipe.
final class ProgressBar: @unchecked Sendable {
    private let lock = NSLock()
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private var step = ""
    private var shownPercent = -1

    /// Shows `progress`; safe to call from any thread.
    func show(_ progress: TransferProgress) {
        lock.lock()
        defer { lock.unlock() }
        let percent = progress.total == 0 ? 100 : min(100, progress.done * 100 / progress.total)
        let isNewStep = progress.step != step
        if isNewStep, isTerminal, !step.isEmpty { write("\n") }
        guard isNewStep || percent != shownPercent else { return }
        step = progress.step
        shownPercent = percent
        if isTerminal {
            let width = 30
            let filled = percent * width / 100
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            write("\r\(progress.step) [\(bar)] \(percent)% \(progress.done)/\(progress.total)" + (percent == 100 ? "\n" : ""))
        } else if isNewStep || percent == 100 {
            write("\(progress.step): \(progress.done)/\(progress.total)\n")
        }
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
