import Foundation

/// The inputs kept in the repository for each ``FuzzTarget``: `Reliability/Corpus/<target>/`.
///
/// libFuzzer starts from them, and the test suite replays them through the ordinary build, so
/// every input that once broke a target stays a regression test.
package enum FuzzCorpus {
    /// The corpus directory of `target` in a checkout whose root is `root`.
    package static func directory(of target: FuzzTarget, root: URL) -> URL {
        root.appendingPathComponent("Reliability/Corpus").appendingPathComponent(target.rawValue)
    }

    /// The regular files at `url`: the file itself, or a directory's files in name order.
    package static func files(at url: URL) -> [URL] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else { return [url] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.sorted().filter { !$0.hasPrefix(".") }.map { url.appendingPathComponent($0) }
    }
}
