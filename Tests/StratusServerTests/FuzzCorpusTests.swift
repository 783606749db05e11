import Foundation
import StratusFuzzTargets
import Testing

/// The fuzz corpus kept in the repository, replayed through the ordinary build: every input that
/// once reached new code or broke a reader keeps being checked (`scripts/fuzz.sh` finds more).
@Suite struct FuzzCorpusTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized

    @Test(arguments: FuzzTarget.allCases)
    func corpusReplaysCleanly(_ target: FuzzTarget) throws {
        let files = FuzzCorpus.files(at: FuzzCorpus.directory(of: target, root: Self.root))
        #expect(!files.isEmpty, "no corpus for \(target.rawValue)")
        for file in files {
            try Data(contentsOf: file).withUnsafeBytes { target.run($0) }
        }
    }

    /// The request corpus starts with one well-formed body per request type the server reads.
    @Test func requestCorpusCoversEveryRequestType() {
        let files = FuzzCorpus.files(at: FuzzCorpus.directory(of: .request, root: Self.root))
        let selectors = Set(files.compactMap { try? Data(contentsOf: $0).first }.map { Int($0) % FuzzTarget.requestTypeCount })
        #expect(selectors.count == FuzzTarget.requestTypeCount)
    }
}
