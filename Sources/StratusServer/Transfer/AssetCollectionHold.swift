/// Keeps asset collection off while a backup or an export copies the files a snapshot names.
///
/// The hold is a row in the database that the collection checks, so it works across processes
/// (`stratus backup` beside a running server); it expires by itself if its holder dies.
enum AssetCollectionHold {
    /// How long a hold lasts if its holder never releases it.
    static let lifetime: Duration = .seconds(6 * 3600)

    /// Runs `body` with collection held from `now`, and releases the hold however `body` ends.
    static func during<T>(_ storage: any StratusStorage, now: Int64, _ body: () async throws -> T) async throws -> T {
        let holder = SecretGenerator.uuid()
        let expiresAt = now + lifetime.milliseconds
        try await storage.write { try await $0.holdAssetCollection(holder: holder, until: expiresAt) }
        do {
            let result = try await body()
            try await storage.write { try await $0.releaseAssetCollection(holder: holder) }
            return result
        } catch {
            _ = try? await storage.write { try await $0.releaseAssetCollection(holder: holder) }
            throw error
        }
    }
}
