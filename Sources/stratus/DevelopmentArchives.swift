import ArgumentParser
import Foundation
import StratusServer

/// `serve --import DIR --export-on-exit`, as Firebase's emulator offers: a development server
/// starts from the containers saved in a directory and saves them back there when it stops.
///
/// The directory holds one container archive per container (`DIR/<container>/`, each as
/// `stratus export` writes it); a single archive is accepted too. Saved archives include secrets
/// (password hashes and sessions), so signed-in simulators and test accounts keep working.
enum DevelopmentArchives {
    /// The archives in `directory`: the directory itself when it is one, else its subdirectories;
    /// none when it does not exist yet.
    static func archives(in directory: URL) throws -> [URL] {
        let manager = FileManager.default
        guard manager.fileExists(atPath: directory.path) else { return [] }
        if manager.fileExists(atPath: directory.appendingPathComponent(ArchiveManifest.fileName).path) { return [directory] }
        return try manager.contentsOfDirectory(atPath: directory.path).sorted().map { name in
            let archive = directory.appendingPathComponent(name)
            guard manager.fileExists(atPath: archive.appendingPathComponent(ArchiveManifest.fileName).path) else {
                throw ValidationError("\(archive.path) is not a container archive (it has no manifest.json)")
            }
            return archive
        }
    }

    /// Loads every archive in `directory` into the data directory of `configuration`; returns
    /// the lines to print.
    static func importAll(from directory: URL, configuration: ServerConfiguration) async throws -> [String] {
        let archives = try archives(in: directory)
        guard !archives.isEmpty else { return ["nothing to import from \(directory.path) yet"] }
        var importing = configuration
        importing.metricsPort = nil
        let server = try await StratusServer(configuration: importing)
        var lines: [String] = []
        for archive in archives {
            let manifest = try await TransferCall.run { try await server.services.admin.importContainer(from: archive) { _ in } }
            lines.append("imported \(manifest.containerID) from \(archive.path): \(TransferCall.summary(manifest))")
        }
        return lines
    }

    /// Writes every container of `server` into `directory`, replacing what was there only once
    /// all are written.
    static func exportAll(from server: StratusServer, to directory: URL) async throws -> [String] {
        let manager = FileManager.default
        let parent = directory.deletingLastPathComponent()
        let fresh = parent.appendingPathComponent(".\(directory.lastPathComponent).exporting-\(UUID().uuidString)")
        var lines: [String] = []
        do {
            for container in try await server.services.admin.listContainers() {
                let archive = try ContainerArchive.directory(for: container.id, in: fresh)
                let manifest = try await TransferCall.run {
                    try await server.services.admin.exportContainer(id: container.id, to: archive, includingSecrets: true, includingHistory: true) { _ in }
                }
                lines.append("exported \(container.id) to \(directory.appendingPathComponent(container.id).path): \(TransferCall.summary(manifest))")
            }
        } catch {
            try? manager.removeItem(at: fresh)
            throw error
        }
        let previous = parent.appendingPathComponent(".\(directory.lastPathComponent).previous-\(UUID().uuidString)")
        if manager.fileExists(atPath: directory.path) { try manager.moveItem(at: directory, to: previous) }
        try manager.moveItem(at: fresh, to: directory)
        try? manager.removeItem(at: previous)
        return lines
    }
}
