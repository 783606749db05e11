import Foundation
import StratusTesting
import Synchronization
@testable import StratusServer

/// A real SMTP server on a free loopback port (Python's aiosmtpd, run by `scripts/lib/mail_sink.py`;
/// `scripts/test.sh` installs it from `requirements.txt`), keeping every message it receives.
final class MailSink: Sendable {
    static var isAvailable: Bool {
        (try? ChildProcess.run("python3", ["-c", "import aiosmtpd"]).status) == 0
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/lib/mail_sink.py")

    let port: Int
    private let child: ChildProcess
    private let text = Mutex("")
    /// Signalled when the reader has read the server's output to its end.
    private let outputEnded = DispatchSemaphore(value: 0)

    /// Starts the server with `mail_sink.py`'s options (`--cert`, `--key`, `--login`, `--hang`), on
    /// `port` or a free one.
    init(_ options: [String] = [], port: Int? = nil) throws {
        self.port = try port ?? Self.freePort()
        child = try ChildProcess("python3", ["-u", Self.script.path, "--port", "\(self.port)"] + options)
        Thread.detachNewThread { [self] in
            while let chunk = child.readChunk() {
                text.withLock { $0 += chunk }
            }
            outputEnded.signal()
        }
    }

    func stop() {
        child.send(SIGKILL)
        outputEnded.wait()
        child.wait()
    }

    /// Waits until it is listening (a minute at most: Python starting under the whole suite's
    /// load on two cores has taken more than the 10 s this waited before).
    func ready() async throws {
        for _ in 0..<600 {
            if text.withLock({ $0 }).contains("ready\n") { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TestFailure("the mail sink did not start: \(text.withLock { $0 })")
    }

    /// The messages mailed to an address so far, oldest first, each after its `X-Sink-TLS` and
    /// `X-Sink-Login` lines.
    func messages(to address: String) -> [String] {
        text.withLock { $0 }.components(separatedBy: "---------- MESSAGE FOLLOWS ----------").filter { $0.contains("To: <\(address)>") }
    }

    /// Waits until `ready` holds of what the sink received (30 s at most, then returns): the sink
    /// prints a message before it answers 250, but this process reads its output on a thread of
    /// its own, which may not have caught up when the mailer returns.
    func wait(until ready: (MailSink) -> Bool) async throws {
        for _ in 0..<600 where !ready(self) { try await Task.sleep(for: .milliseconds(50)) }
    }

    /// The messages mailed to an address, once there are at least `count` (or after 30 s, what
    /// there is).
    func messages(to address: String, atLeast count: Int) async throws -> [String] {
        try await wait { $0.messages(to: address).count >= count }
        return messages(to: address)
    }

    /// How many messages arrived, to any address.
    var messageCount: Int {
        text.withLock { $0 }.components(separatedBy: "---------- MESSAGE FOLLOWS ----------").count - 1
    }

    /// The verification codes mailed to an address, oldest first, once there are at least `count`
    /// messages to it.
    func codes(to address: String, atLeast count: Int = 1) async throws -> [String] {
        try await messages(to: address, atLeast: count).compactMap { message in
            message.range(of: #"code: \d{6}"#, options: .regularExpression).map { String(message[$0].suffix(6)) }
        }
    }

    /// A mailer to this sink. Its deadline is a minute, not the default 10 s: the whole suite runs
    /// at once on two cores, and a conversation (TLS included) has been seen to take longer than
    /// 10 s there; the deadline itself is tested with a server that never answers.
    func mailer(host: String = "127.0.0.1") -> SMTPMailer {
        var mailer = SMTPMailer(host: host, port: port, from: "stratus@example.com")
        mailer.timeout = .seconds(60)
        return mailer
    }

    static func freePort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(socket, pointer, length) == 0 && getsockname(socket, pointer, &length) == 0
            }
        }
        guard bound else { throw TestFailure("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
