import Foundation
import StratusTesting

extension ServerProcess {
    /// The container `stratus serve` creates by default.
    static let containerID = "iCloud.dev.stratus"

    /// The running server's resident memory (`VmRSS`) in MiB and its open file descriptors, from
    /// `/proc` (nil where there is none).
    func usage() -> (rssMiB: Double, fileDescriptors: Int)? {
        guard let pid = processIdentifier,
              let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Double(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") else { return nil }
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
        return (kilobytes / 1024, descriptors)
    }
}
