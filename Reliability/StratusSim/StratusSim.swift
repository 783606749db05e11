import ArgumentParser
import Foundation

/// `stratus-sim`: reliability tools that run real Stratus processes and break them on purpose.
@main
struct StratusSim: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stratus-sim", abstract: "Reliability runs against real Stratus processes.",
        subcommands: [Simulate.self, CrashLoop.self, Soak.self], defaultSubcommand: Simulate.self)
}

/// Flushes standard output, so progress shows as it happens when it goes to a file or a pipe
/// (the reliability runs are long, and output there is block-buffered).
func flushOutput() {
    fflush(nil)
}
