import ArgumentParser
import Foundation

/// An optional JSON configuration file, named by `--config FILE` (anywhere before `--`) or by
/// `STRATUS_CONFIG`: an object whose keys are option names as the command line spells them without
/// the dashes, and whose values are strings, numbers, booleans (flags), or arrays (repeatable
/// options):
///
/// ```json
/// {"port": 8443, "data": "/var/lib/stratus", "tls-cert": "/etc/stratus/cert.pem",
///  "cors-origin": ["https://app.example.com"], "bind-download-urls": true}
/// ```
///
/// Its values count as environment variables that were not set (``EnvironmentOptions``): the
/// command line wins over the environment, which wins over the file, which wins over the default.
/// Each command reads the keys it has, so one file serves `serve` and `stratus user …` alike; a key
/// that no command has, or a value of the wrong kind, is an error.
enum ConfigFile {
    /// Removes `--config FILE` (or `--config=FILE`) from the arguments; returns what is left and the path.
    static func extractPath(from arguments: [String], environment: [String: String]) -> (arguments: [String], path: String?) {
        var remaining: [String] = []
        var path = environment["STRATUS_CONFIG"]
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { remaining += arguments[index...]; break }
            if argument == "--config", index + 1 < arguments.count {
                path = arguments[index + 1]
                index += 2
                continue
            }
            if argument.hasPrefix("--config=") {
                path = String(argument.dropFirst("--config=".count))
            } else {
                remaining.append(argument)
            }
            index += 1
        }
        return (remaining, path)
    }

    /// The file's values as the `STRATUS_…` variables they stand for.
    static func variables(at path: String, knownOptions: Set<String>) throws -> [String: String] {
        guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("cannot read the config file \(path)") }
        let object: [String: Value]
        do {
            object = try JSONDecoder().decode([String: Value].self, from: data)
        } catch {
            throw ValidationError("the config file \(path) is not a JSON object of strings, numbers, booleans and lists of strings")
        }
        var variables: [String: String] = [:]
        for (key, value) in object {
            guard knownOptions.contains(key) else { throw ValidationError("the config file names '\(key)', which no command has") }
            variables[EnvironmentOptions.Option(name: key, takesValue: true, repeatable: false).variable] = try value.text(key)
        }
        return variables
    }

    /// One value of the file.
    enum Value: Decodable {
        case flag(Bool)
        case number(Double)
        case text(String)
        case list([String])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let flag = try? container.decode(Bool.self) { self = .flag(flag) }
            else if let number = try? container.decode(Double.self) { self = .number(number) }
            else if let text = try? container.decode(String.self) { self = .text(text) }
            else { self = .list(try container.decode([String].self)) }
        }

        /// The value as an environment variable spells it.
        func text(_ key: String) throws -> String {
            switch self {
            case .flag(let flag): return flag ? "true" : "false"
            case .number(let number): return number == number.rounded() ? String(Int64(number)) : String(number)
            case .text(let text): return text
            case .list(let items):
                guard !items.contains(where: { $0.contains(",") }) else {
                    throw ValidationError("'\(key)' in the config file lists a value with a comma")
                }
                return items.joined(separator: ",")
            }
        }
    }
}
