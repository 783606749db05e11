import Foundation
import StratusTesting

/// What the guides' code blocks run against here: a TestCloud's server, container and API token in
/// place of `http://127.0.0.1:8080`, `iCloud.dev.stratus` and `YOUR-API-TOKEN`, and a temporary
/// directory for their files (see
/// `scripts/lib/doc_blocks.py`, which generates `Generated/` from the guides).
struct Guide {
    let baseURL: String
    let containerIdentifier = TestCloud.containerID
    let apiToken: String
    let directory: URL

    init(_ cloud: TestCloud) async throws {
        baseURL = await cloud.baseURL
        apiToken = await cloud.apiToken
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("guide-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// The path of a file the guide names, in the temporary directory.
    func file(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// The guides' Swift blocks, one function each (`Generated/`).
enum GuideBlocks {}
