import Foundation

/// Baselines for files: a copy written in 1 MB chunks and fsynced (what an upload has to do), and
/// a cold read of it in 1 MB chunks (what a download has to do).
///
/// A cold read is one the guest's page cache does not serve: the file is written, synced, and
/// dropped from the cache (`POSIX_FADV_DONTNEED`) before it is read, and the read itself is
/// repeated until two consecutive readings agree within 10%, so that the figure is the disk's
/// steady rate, not whichever cache happened to hold the first pages.
///
/// A frozen baseline: `scripts/check-benchmarks.sh` refuses a commit that changes it together
/// with `Sources/`.
enum RawDisk {
    static let chunk = 1024 * 1024

    /// Seconds to copy `source` to a new file `target` and fsync it.
    static func copyWithFsync(_ source: String, to target: String) throws -> Double {
        let start = ContinuousClock.now
        let input = open(source, O_RDONLY)
        let output = open(target, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(input); close(output) }
        guard input >= 0, output >= 0 else { throw BenchmarkError("cannot open files") }
        var buffer = [UInt8](repeating: 0, count: chunk)
        while true {
            let count = read(input, &buffer, chunk)
            if count <= 0 { break }
            guard write(output, buffer, count) == count else { throw BenchmarkError("short write") }
        }
        fsync(output)
        return seconds(since: start)
    }

    /// Seconds to read `path` whole with none of it in the page cache: the lower of two consecutive
    /// cold readings that agree within 10% (at most five readings).
    static func coldReadSeconds(_ path: String, size: Int) throws -> Double {
        var readings: [Double] = []
        while readings.count < 5 {
            try dropFromPageCache(path)
            let start = ContinuousClock.now
            guard try readAll(path) == size else { throw BenchmarkError("short read") }
            readings.append(seconds(since: start))
            if readings.count >= 2 {
                let (last, previous) = (readings[readings.count - 1], readings[readings.count - 2])
                if abs(last - previous) <= 0.1 * max(last, previous) { return min(last, previous) }
            }
        }
        return median(readings)
    }

    /// Reads a file in 1 MB chunks; returns its size.
    static func readAll(_ path: String) throws -> Int {
        let input = open(path, O_RDONLY)
        guard input >= 0 else { throw BenchmarkError("cannot open \(path)") }
        defer { close(input) }
        var buffer = [UInt8](repeating: 0, count: chunk)
        var total = 0
        while true {
            let count = read(input, &buffer, chunk)
            if count <= 0 { return total }
            total += count
        }
    }

    /// Asks the kernel to forget a file's (clean) cached pages, so the next read comes from disk.
    static func dropFromPageCache(_ path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw BenchmarkError("cannot open \(path)") }
        defer { close(descriptor) }
        fdatasync(descriptor)
        _ = posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_DONTNEED))
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = (ContinuousClock.now - start).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }
}
