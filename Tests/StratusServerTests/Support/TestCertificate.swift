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

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
