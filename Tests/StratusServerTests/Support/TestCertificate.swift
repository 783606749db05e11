import Foundation
import StratusTesting

/// A self-signed certificate for 127.0.0.1 and localhost, made by `openssl` at test time, valid a day.
struct TestCertificate {
    let directory: URL
    var certificate: URL { directory.appendingPathComponent("cert.pem") }
    var privateKey: URL { directory.appendingPathComponent("key.pem") }

    static func make() throws -> TestCertificate {
        let files = TestCertificate(directory: FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)"))
        try FileManager.default.createDirectory(at: files.directory, withIntermediateDirectories: true)
        // Through ChildProcess, not Foundation's Process, whose run() crashed here once (a bad read in
        // memcpy while copying the environment, with other tests' threads busy).
        let made = try ChildProcess.run("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                                                   "-keyout", files.privateKey.path, "-out", files.certificate.path, "-days", "1",
                                                   "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
                                        capturingStandardError: true)
        guard made.status == 0 else { throw TestFailure("openssl could not make a certificate: \(made.output)") }
        return files
    }

    /// The certificate authority of ``makeIssuedByAuthority()``.
    var authority: URL { directory.appendingPathComponent("ca.pem") }

    /// A certificate for localhost and 127.0.0.1, valid for `days`, issued by a test certificate
    /// authority of its own (``authority``), as a provider's certificate is issued by a public one.
    static func makeIssuedByAuthority(days: Int = 1) throws -> TestCertificate {
        let files = TestCertificate(directory: FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)"))
        try FileManager.default.createDirectory(at: files.directory, withIntermediateDirectories: true)
        let authorityKey = files.directory.appendingPathComponent("ca-key.pem").path
        let request = files.directory.appendingPathComponent("cert.csr").path
        let steps: [[String]] = [
            ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", authorityKey,
             "-out", files.authority.path, "-days", "1", "-subj", "/CN=Stratus Test CA",
             "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign"],
            ["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", files.privateKey.path,
             "-out", request, "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
            ["x509", "-req", "-in", request, "-CA", files.authority.path, "-CAkey", authorityKey, "-CAcreateserial",
             "-copy_extensions", "copy", "-out", files.certificate.path, "-days", "\(days)"],
        ]
        for step in steps {
            let made = try ChildProcess.run("openssl", step, capturingStandardError: true)
            guard made.status == 0 else { throw TestFailure("openssl \(step[0]) failed: \(made.output)") }
        }
        return files
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
