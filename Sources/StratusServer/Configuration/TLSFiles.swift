import Foundation
import NIOSSL

/// The PEM files of a server's TLS identity: its certificate chain (the server's certificate
/// first) and its private key.
public struct TLSFiles: Sendable {
    public var certificateChain: URL
    public var privateKey: URL

    public init(certificateChain: URL, privateKey: URL) {
        self.certificateChain = certificateChain
        self.privateKey = privateKey
    }

    /// The TLS configuration of a server with this identity (TLS 1.2 and later).
    func serverConfiguration() throws -> TLSConfiguration {
        let chain = try NIOSSLCertificate.fromPEMFile(certificateChain.path)
        guard !chain.isEmpty else { throw TLSFilesError("\(certificateChain.path) holds no certificate") }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: privateKey.path, format: .pem)))
        configuration.minimumTLSVersion = .tlsv12
        return configuration
    }
}

/// A certificate or key file that does not read as one.
struct TLSFilesError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
