import Foundation

/// A new empty directory under the system's temporary directory for one benchmark run (its
/// servers' data, state files), removed with ``remove(_:)`` when the run ends.
enum ScratchDirectory {
    static func make() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func remove(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }
}
