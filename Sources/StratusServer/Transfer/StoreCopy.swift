import Foundation
import StratusCore

/// A whole store copied into another, empty one (`stratus copy`): how a deployment moves from
/// SQLite to PostgreSQL, or between any two stores.
///
/// Each container travels as a container archive (``ContainerArchive``) with its secrets and its
/// history (the record log), through a temporary directory: exported from the source in one snapshot, loaded into the target with
/// its row ids and change sequences, and the target takes the source's epoch, so the change tokens
/// devices hold stay valid, as do sessions, API tokens and server-to-server keys. The console's
/// administrators follow. Then every container is exported again from the target and must equal
/// the source's archive: the same lines (by SHA-256), the same counts, the same asset files.
///
/// The server's secret is not copied: asset URLs and query continuation markers handed out before
/// the move stop working (they expire within minutes anyway), and clients fetch them again.
/// Stop the source's server first: a write made during the copy may be missed.
package enum StoreCopy {
    /// What a copy moved.
    package struct Summary: Sendable {
        /// The source's archive of each container, as verified in the target.
        package var containers: [ArchiveManifest]
        package var administrators: Int
    }

    static func copy(from source: AdminService, to target: AdminService, progress: @escaping @Sendable (TransferProgress) -> Void) async throws -> Summary {
        guard try await target.listContainers().isEmpty, try await target.storage.read({ try await $0.administrators() }).isEmpty else {
            throw TransferError("the target store is not empty: copy into a new database or directory")
        }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }

        var copied: [ArchiveManifest] = []
        for container in try await source.listContainers() {
            let archive = try ContainerArchive.directory(for: container.id, in: work)
            let exported = try await source.exportContainer(id: container.id, to: archive, includingSecrets: true, includingHistory: true, progress: progress)
            _ = try await target.importContainer(from: archive, progress: progress)
            try FileManager.default.removeItem(at: archive)
            copied.append(exported)
        }
        let administrators = try await source.storage.read { try await $0.administrators() }
        try await target.storage.write { transaction in
            for administrator in administrators { try await transaction.insertAdministrator(administrator) }
        }

        for (index, exported) in copied.enumerated() {
            progress(TransferProgress(step: "verified", done: index, total: copied.count))
            let again = work.appendingPathComponent("verify-\(exported.containerID)")
            let copy = try await target.exportContainer(id: exported.containerID, to: again, includingSecrets: true, includingHistory: true) { _ in }
            try FileManager.default.removeItem(at: again)
            guard copy.linesSHA256 == exported.linesSHA256, copy.items == exported.items, copy.assetFiles == exported.assetFiles,
                  copy.assetBytes == exported.assetBytes, copy.changeSequence == exported.changeSequence, copy.epoch == exported.epoch else {
                throw TransferError("container '\(exported.containerID)' differs in the target after the copy: "
                                    + "\(copy.items) against \(exported.items), lines \(copy.linesSHA256) against \(exported.linesSHA256)")
            }
        }
        progress(TransferProgress(step: "verified", done: copied.count, total: copied.count))
        return Summary(containers: copied, administrators: administrators.count)
    }
}
