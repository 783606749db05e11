import Foundation
import Testing
import StratusClient
import StratusServer
import StratusTesting

/// The SDK's two "forgot password" calls against the real server (the mailed flow end to end is
/// `PasswordResetTests` in the server's suite, with a real SMTP server).
@Suite struct PasswordResetClientTests {
    @Test func theCallsReachTheServerAndAWrongCodeIsABadRequest() async throws {
        // A mailer that reaches nothing: an unknown address gets the same answer as any other.
        try await TestCloud.with(configure: { $0.smtp = SMTPMailer(host: "127.0.0.1", port: 9, from: "stratus@example.com") }) { cloud in
            let container = await cloud.container()
            try await container.requestPasswordReset(email: "nobody@example.com")
            await #expect { try await container.resetPassword(code: "AAAAA-AAAAA", newPassword: "new password") } throws: { error in
                (error as? CloudError)?.code == .invalidArguments
            }
        }
    }
}
