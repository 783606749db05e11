import ArgumentParser

/// `stratus-sim`: reliability tools that run real Stratus processes and break them on purpose.
@main
struct StratusSim: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stratus-sim", abstract: "Reliability runs against real Stratus processes.",
        subcommands: [CrashLoop.self])
}
