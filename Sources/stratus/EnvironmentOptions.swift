import ArgumentParser
import Foundation

/// Options from the environment: every option of a command may also be set by `STRATUS_` and its
/// name in capitals (`--port` → `STRATUS_PORT`, `--tls-cert` → `STRATUS_TLS_CERT`; `--database` is
/// `STRATUS_DATABASE_URL`). An option given
/// on the command line wins over the environment, which wins over the default. A flag is set by
/// `1`, `true` or `yes`; an option whose help says "repeatable" takes comma-separated values. Only
/// the options of the command being run are read, so a variable meant for `serve` does not
/// disturb `stratus key list`. A value that is not valid fails as it would on the command line.
enum EnvironmentOptions {
    /// One option of a command, as its help lists it.
    struct Option: Equatable {
        var name: String
        var takesValue: Bool
        var repeatable: Bool

        var variable: String {
            // The database's URL goes by the name other tools give it.
            name == "database" ? "STRATUS_DATABASE_URL" : "STRATUS_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
        }
    }

    /// `arguments` (without the program name) with the environment's options appended.
    static func arguments(_ arguments: [String], environment: [String: String]) -> [String] {
        guard let command = command(named: arguments) else { return arguments }
        let given = Set(arguments.prefix { $0 != "--" }.compactMap { argument -> String? in
            guard argument.hasPrefix("--") else { return nil }
            return String(argument.dropFirst(2).prefix { $0 != "=" })
        })
        var result = arguments
        for option in options(of: command) where !given.contains(option.name) {
            guard let value = environment[option.variable] else { continue }
            if !option.takesValue {
                if ["1", "true", "yes"].contains(value.lowercased()) { result.append("--\(option.name)") }
                else if !["0", "false", "no", ""].contains(value.lowercased()) { result.append("--\(option.name)=\(value)") }
            } else if option.repeatable {
                for part in value.split(separator: ",") { result += ["--\(option.name)", part.trimmingCharacters(in: .whitespaces)] }
            } else {
                result += ["--\(option.name)", value]
            }
        }
        return result
    }

    /// The command the arguments run: the subcommands they name, or `serve` when they name none.
    static func command(named arguments: [String]) -> ParsableCommand.Type? {
        var command: ParsableCommand.Type = Stratus.self
        for argument in arguments {
            guard let next = command.configuration.subcommands.first(where: { $0._commandName == argument }) else { break }
            command = next
        }
        if command == Stratus.self { command = Stratus.configuration.defaultSubcommand ?? Serve.self }
        return command.configuration.subcommands.isEmpty ? command : nil
    }

    /// Every command that runs (no subcommands of its own).
    static func allCommands(under command: ParsableCommand.Type = Stratus.self) -> [ParsableCommand.Type] {
        let subcommands = command.configuration.subcommands
        return subcommands.isEmpty ? [command] : subcommands.flatMap { allCommands(under: $0) }
    }

    /// The options a command's help lists, but `--help` and `--version`.
    static func options(of command: ParsableCommand.Type) -> [Option] {
        var options: [Option] = []
        for line in Stratus.helpMessage(for: command, columns: 10_000).split(separator: "\n") {
            if let match = line.firstMatch(of: /^\s+(?:-\w, )?--([a-z0-9-]+)( <[^>]+>)?/) {
                options.append(Option(name: String(match.1), takesValue: match.2 != nil, repeatable: line.contains("repeatable")))
            } else if line.hasPrefix("   "), line.contains("repeatable"), !options.isEmpty {
                // A long option's help starts on the line after its name.
                options[options.count - 1].repeatable = true
            }
        }
        return options.filter { $0.name != "help" && $0.name != "version" }
    }
}
