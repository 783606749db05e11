import ArgumentParser
import Crypto
import Foundation
import StratusServer
import StratusSQLite

/// `stratus-bench keys`: sealing and opening through the ``KeyVault`` against AES-GCM alone on the
/// same bytes, and a master key rotation of 10,000 users' data keys against the same re-wrapping
/// in memory, each baseline measured in the same run.
struct KeysBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "keys", abstract: "Sealing, opening and rotating the master key.")

    @Option(help: "Values sealed and opened per repetition.") var values = 100_000
    @Option(help: "Data keys the rotation re-wraps.") var users = 10_000
    @Option(help: "Repetitions; the median counts.") var repeats = 3

    func run() async throws {
        let directory = try ScratchDirectory.make()
        defer { ScratchDirectory.remove(directory) }
        // A value as the outbox seals it: a mail's body of about 200 bytes.
        let plaintext = Array(String(repeating: "Enter this code to confirm it is you: 123456. ", count: 5).utf8)
        var runs: [(seal: Double, open: Double, raw: Double, rawOpen: Double, rotation: Double, memory: Double)] = []
        for run in 0..<repeats {
            let storage = try SQLiteStorage(path: directory.appendingPathComponent("stratus-\(run).sqlite").path)
            let store = try storage.keyStore(directory: directory.appendingPathComponent("keys-\(run)"))
            let old = MasterKey()
            let vault = try await KeyVault.open(store: store, master: old, clock: ServerClock())
            let scope = KeyScope.user("bench")
            var sealed: [String] = []
            sealed.reserveCapacity(values)
            let seal = try await Stopwatch.seconds {
                for _ in 0..<values { sealed.append(try await vault.seal(plaintext, for: scope)) }
            }
            let open = try await Stopwatch.seconds {
                for value in sealed { _ = try await vault.open(value, for: scope) }
            }
            let key = SymmetricKey(size: .bits256)
            var boxes: [AES.GCM.SealedBox] = []
            boxes.reserveCapacity(values)
            let raw = try await Stopwatch.seconds {
                for _ in 0..<values { boxes.append(try AES.GCM.seal(plaintext, using: key)) }
            }
            let rawOpen = try await Stopwatch.seconds {
                for box in boxes { _ = try AES.GCM.open(box, using: key) }
            }
            let (rotation, memory) = try await rotate(store: store, from: old)
            runs.append((Double(values) / seal, Double(values) / open, Double(values) / raw, Double(values) / rawOpen, rotation, memory))
            print(String(format: "  run %d: seal %.0f/s (AES-GCM alone %.0f/s), open %.0f/s (alone %.0f/s), rotation of %d keys %.2f s (in memory %.3f s)",
                         run + 1, runs[run].seal, runs[run].raw, runs[run].open, runs[run].rawOpen, users, rotation, memory))
        }
        Report.figure("seal_per_s", median(runs.map(\.seal)), decimals: 0)
        Report.figure("open_per_s", median(runs.map(\.open)), decimals: 0)
        Report.figure("aes_gcm_seal_per_s", median(runs.map(\.raw)), decimals: 0)
        Report.figure("aes_gcm_open_per_s", median(runs.map(\.rawOpen)), decimals: 0)
        Report.ratio("seal_vs_aes_gcm", median(runs.map { $0.seal / $0.raw }), of: "seal_per_s", to: "aes_gcm_seal_per_s")
        Report.ratio("open_vs_aes_gcm", median(runs.map { $0.open / $0.rawOpen }), of: "open_per_s", to: "aes_gcm_open_per_s")
        Report.figure("master_key_rotation_s_10000", median(runs.map(\.rotation)), decimals: 3)
        Report.figure("rewrap_in_memory_s_10000", median(runs.map(\.memory)), decimals: 3)
        Report.ratio("rotation_vs_in_memory", median(runs.map { $0.rotation / $0.memory }), of: "master_key_rotation_s_10000",
                     to: "rewrap_in_memory_s_10000")
    }

    /// Seconds to rotate `users` data keys wrapped by `old` to a new master through the vault, and
    /// to unwrap and re-wrap the same keys in memory.
    private func rotate(store: any KeyStore, from old: MasterKey) async throws -> (Double, Double) {
        let keys = try (0..<users).map { try KeyVault.wrap(SymmetricKey(size: .bits256), scope: KeyScope.user("u\($0)").name, with: old, at: 0) }
        try await store.transaction { transaction in
            for key in keys { try await transaction.insertDataKey(key) }
        }
        let new = MasterKey()
        let vault = try await KeyVault.open(store: store, master: new, previous: old, clock: ServerClock())
        let rotation = try await Stopwatch.seconds { _ = try await vault.rotateMaster() }
        let memory = try await Stopwatch.seconds {
            for key in keys { _ = try KeyVault.wrap(try KeyVault.unwrap(key, with: old), scope: key.scope, with: new, at: 0) }
        }
        return (rotation, memory)
    }
}
