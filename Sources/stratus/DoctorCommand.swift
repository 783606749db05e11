import ArgumentParser
import Foundation
import StratusServer

/// `stratus doctor`: checks a deployment before it goes live, with the options `serve` would run
/// with (and the same `STRATUS_…` variables): the data directory, the database and its migration
/// level, TLS files, the public URL, web origins, trusted proxies, the SMTP server and the clock.
/// Prints each check as ok, warning or error with its fix; exits 1 on an error. Changes nothing.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor", abstract: "Check a deployment before it goes live (takes serve's options; changes nothing).")

    @OptionGroup var serve: Serve

    func run() async throws {
        let findings = await DeploymentDoctor(configuration: try serve.serverConfiguration()).run()
        for finding in findings {
            print("\(finding.level.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(finding.check): \(finding.detail)")
            if let fix = finding.fix { print("         fix: \(fix)") }
        }
        let errors = findings.filter { $0.level == .error }.count
        let warnings = findings.filter { $0.level == .warning }.count
        print("\(errors) error(s), \(warnings) warning(s)")
        if errors > 0 { throw ExitCode(1) }
    }
}
