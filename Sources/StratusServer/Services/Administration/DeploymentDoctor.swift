import Foundation
import Logging
import NIOSSL

/// What `stratus doctor` checks of a deployment before it goes live, from the configuration
/// `serve` would run with, changing nothing (the database is not migrated, no mail is sent).
///
/// Each check ends as ok, a warning (it runs, but not as it should) or an error (fix it before
/// serving), with the fix in words.
package struct DeploymentDoctor: Sendable {
    /// How a check ended.
    package enum Level: String, Sendable {
        case ok, warning, error
    }

    /// One check's outcome.
    package struct Finding: Sendable {
        package var check: String
        package var level: Level
        package var detail: String
        package var fix: String?
    }

    let configuration: ServerConfiguration
    /// Free space below which the data directory is an error, and below which a warning.
    static let minimumFreeBytes: Int64 = 100 * 1024 * 1024
    static let comfortableFreeBytes: Int64 = 1024 * 1024 * 1024
    /// A certificate expiring sooner than this is a warning.
    static let certificateWarning: TimeInterval = 14 * 24 * 3600
    /// Clock skew against the database: a warning past 2 seconds, an error past 30.
    static let skewWarning: TimeInterval = 2
    static let skewError: TimeInterval = 30
    /// Hosts that name this machine.
    static let loopbackHosts: Set<String> = ["127.0.0.1", "localhost", "::1"]

    package init(configuration: ServerConfiguration) {
        self.configuration = configuration
    }

    /// Every check, in the order a deployment depends on them.
    package func run() async -> [Finding] {
        var findings: [Finding] = [dataDirectory()]
        findings += await database()
        findings += [tls(), publicURL(), crossOrigins(), trustedProxies()].compactMap { $0 }
        findings.append(await mail())
        return findings
    }

    // MARK: Checks

    private func dataDirectory() -> Finding {
        let check = "data directory"
        let path = configuration.dataDirectory.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            let parent = configuration.dataDirectory.deletingLastPathComponent().path
            return FileManager.default.isWritableFile(atPath: parent)
                ? Finding(check: check, level: .warning, detail: "\(path) does not exist yet; serve creates it", fix: nil)
                : Finding(check: check, level: .error, detail: "\(path) does not exist and \(parent) is not writable",
                          fix: "create \(path) for the server's user (mkdir -p, chown)")
        }
        guard isDirectory.boolValue else {
            return Finding(check: check, level: .error, detail: "\(path) is a file, not a directory", fix: "point --data at a directory")
        }
        let probe = configuration.dataDirectory.appendingPathComponent(".doctor-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: probe.path, contents: Data("probe".utf8)) else {
            return Finding(check: check, level: .error, detail: "\(path) is not writable by this user", fix: "chown the directory to the server's user")
        }
        try? FileManager.default.removeItem(at: probe)
        let free = (try? FileManager.default.attributesOfFileSystem(forPath: path)[.systemFreeSize] as? NSNumber)?.int64Value
        let permissions = (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? 0
        let freeText = free.map { String(format: "%.1f GB free", Double($0) / 1e9) } ?? "free space unknown"
        if let free, free < Self.minimumFreeBytes {
            return Finding(check: check, level: .error, detail: "\(path): only \(freeText)", fix: "free disk space or move the data directory")
        }
        if permissions & 0o007 != 0 {
            return Finding(check: check, level: .warning, detail: "\(path) is open to every user of the machine (mode \(String(permissions, radix: 8)))",
                           fix: "chmod 700 \(path): it holds the URL signing key and, on SQLite, every record")
        }
        if let free, free < Self.comfortableFreeBytes {
            return Finding(check: check, level: .warning, detail: "\(path): \(freeText)", fix: "give it more room before the data grows")
        }
        return Finding(check: check, level: .ok, detail: "\(path): writable, \(freeText)", fix: nil)
    }

    private func database() async -> [Finding] {
        let inspection: StoreInspection
        do {
            inspection = try await StoreInspection.inspect(configuration)
        } catch {
            return [Finding(check: "database", level: .error, detail: error.detail, fix: error.fix)]
        }
        let level = inspection.applied.map { Self.migrationLevel(applied: $0, known: inspection.known, store: inspection.store) }
            ?? Finding(check: "database", level: .ok, detail: "\(inspection.store): empty or not made yet; made and migrated on first start", fix: nil)
        return [level] + (inspection.databaseTime.map { [Self.clockSkew(configuration.clock.seconds - $0)] } ?? []) + [keys(inspection.masters)]
    }

    /// The master key against the key store's canaries (``KeyVault/verify(_:against:)``), and
    /// where the key is kept.
    private func keys(_ masters: [StoredMaster]) -> Finding {
        let check = "master key"
        let master: MasterKey?
        do {
            master = try configuration.masterKey()
            try KeyVault.verify(master.map { [$0] } ?? [], against: masters)
        } catch {
            return Finding(check: check, level: .error, detail: "\(error)", fix: "give the store's master key (docs/security.md#keys)")
        }
        guard let master else {
            return Finding(check: check, level: .warning, detail: "none given, and the key store has no data keys yet: serve makes master.key in the data directory",
                           fix: "make one apart from the data (stratus keys init --key-file FILE) and give it with --encryption-key-file")
        }
        if configuration.encryptionKeyFile == nil && configuration.encryptionKey == nil {
            return Finding(check: check, level: .warning, detail: "\(master.fingerprint), kept in the data directory beside the data it protects",
                           fix: "move master.key out of the data directory and give it with --encryption-key-file (docs/security.md#keys)")
        }
        return Finding(check: check, level: .ok, detail: "\(master.fingerprint)\(masters.isEmpty ? "; the key store has no data keys yet" : " opens the key store")", fix: nil)
    }

    /// How a store's applied migrations compare with this version's.
    static func migrationLevel(applied: Set<String>, known: [String], store: String) -> Finding {
        let unknown = applied.subtracting(known)
        if !unknown.isEmpty {
            return Finding(check: "database", level: .error, detail: "\(store) was migrated by a newer Stratus (\(unknown.sorted().joined(separator: ", ")))",
                           fix: "run the newer version, or restore a backup made for this one: migrations only go forward")
        }
        let pending = known.filter { !applied.contains($0) }
        if !pending.isEmpty {
            return Finding(check: "database", level: .warning,
                           detail: "\(store): \(pending.count) migration(s) will run at start (\(pending.joined(separator: ", ")))",
                           fix: "back up first (stratus backup); see docs/upgrading.md")
        }
        return Finding(check: "database", level: .ok, detail: "\(store): reachable, every migration applied (\(known.count))", fix: nil)
    }

    static func clockSkew(_ seconds: TimeInterval) -> Finding {
        let text = String(format: "this machine's clock is %.1f s %@ the database's", abs(seconds), seconds >= 0 ? "ahead of" : "behind")
        let level: Level = abs(seconds) > skewError ? .error : abs(seconds) > skewWarning ? .warning : .ok
        return Finding(check: "clock", level: level, detail: text, fix: level == .ok ? nil : "run NTP (chrony, systemd-timesyncd) on both machines")
    }

    private func tls() -> Finding? {
        guard let files = configuration.tls else { return nil }
        let check = "TLS"
        do {
            _ = try files.serverConfiguration()
            let chain = try NIOSSLCertificate.fromPEMFile(files.certificateChain.path)
            guard let leaf = chain.first else { throw TLSFilesError("no certificate") }
            let remaining = TimeInterval(leaf.notValidAfter) - configuration.clock.seconds
            let expiry = Date(timeIntervalSince1970: TimeInterval(leaf.notValidAfter)).formatted(.iso8601)
            if remaining <= 0 {
                return Finding(check: check, level: .error, detail: "the certificate expired at \(expiry)", fix: "renew it (certbot renew) and restart")
            }
            if remaining < Self.certificateWarning {
                return Finding(check: check, level: .warning, detail: "the certificate expires at \(expiry)", fix: "renew it soon")
            }
            return Finding(check: check, level: .ok, detail: "certificate and key load; valid until \(expiry)", fix: nil)
        } catch {
            return Finding(check: check, level: .error, detail: "\(files.certificateChain.path) and \(files.privateKey.path) do not load: \(error)",
                           fix: "give a PEM certificate chain (the server's first) and its private key")
        }
    }

    private func publicURL() -> Finding {
        let check = "public URL"
        guard let text = configuration.publicURL else {
            return Self.loopbackHosts.contains(configuration.host)
                ? Finding(check: check, level: .ok, detail: "none; the server listens on loopback only", fix: nil)
                : Finding(check: check, level: .warning, detail: "none, and the server listens on \(configuration.host): asset URLs follow each request's Host",
                          fix: "give --public-url https://your.host so asset URLs and web pages name the address clients reach")
        }
        guard let url = URLComponents(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme), let host = url.host, !host.isEmpty else {
            return Finding(check: check, level: .error, detail: "'\(text)' is not an http or https URL", fix: "give --public-url as https://your.host")
        }
        if scheme == "http" && !Self.loopbackHosts.contains(host) {
            return Finding(check: check, level: .warning, detail: "\(text) is cleartext: sessions and data cross the network unencrypted",
                           fix: "serve https (--tls-cert/--tls-key, or a TLS proxy) and give an https public URL")
        }
        return Finding(check: check, level: .ok, detail: text, fix: nil)
    }

    private func crossOrigins() -> Finding? {
        guard !configuration.corsOrigins.isEmpty else { return nil }
        if configuration.corsOrigins.contains("*") {
            return Finding(check: "web origins", level: .warning, detail: "--cors-origin * lets every web page call the server with a user's token",
                           fix: "list your web apps' origins instead")
        }
        return Finding(check: "web origins", level: .ok, detail: configuration.corsOrigins.sorted().joined(separator: ", "), fix: nil)
    }

    private func trustedProxies() -> Finding? {
        guard !configuration.trustedProxies.isEmpty else { return nil }
        if let every = configuration.trustedProxies.first(where: \.coversEveryAddress) {
            return Finding(check: "trusted proxies", level: .error,
                           detail: "\(every) trusts every client to name its own address: throttles and logs can be dodged",
                           fix: "list only your proxies' addresses")
        }
        return Finding(check: "trusted proxies", level: .ok, detail: configuration.trustedProxies.map(\.description).joined(separator: ", "), fix: nil)
    }

    private func mail() async -> Finding {
        guard let mailer = configuration.smtp else {
            return Finding(check: "mail", level: .warning, detail: "no SMTP server: email addresses stay unverified and passwords cannot be reset by mail",
                           fix: "give --smtp-host (docs/identity.md)")
        }
        do {
            return Finding(check: "mail", level: .ok, detail: try await mailer.check(), fix: nil)
        } catch {
            return Finding(check: "mail", level: .error, detail: "\(error)", fix: "check --smtp-host, --smtp-port, the credentials and --smtp-ca-file")
        }
    }
}
