/// What a command accepts: options with a value, flags without one, and positional arguments.
package struct CommandSpec: Sendable {
    /// The command's name.
    package let name: String
    /// Options that take a value (`--profile NAME`), by long name.
    package let valueOptions: Set<String>
    /// Options that may be given several times.
    package let repeatable: Set<String>
    /// Flags (`--json`).
    package let flags: Set<String>
    /// Short names (`-X`) and the long names they stand for.
    package let shortNames: [String: String]
    /// How many positional arguments are allowed.
    package let positionals: ClosedRange<Int>
    /// What the positional arguments are, for messages (`URL`, `SCOPE…`).
    package let positionalName: String

    /// Creates a specification.
    package init(
        name: String,
        valueOptions: Set<String> = [],
        repeatable: Set<String> = [],
        flags: Set<String> = [],
        shortNames: [String: String] = [:],
        positionals: ClosedRange<Int> = 0...0,
        positionalName: String = ""
    ) {
        self.name = name
        self.valueOptions = valueOptions.union(["profile", "account"])
        self.repeatable = repeatable
        self.flags = flags.union(["help"])
        self.shortNames = shortNames.merging(["h": "help"]) { current, _ in current }
        self.positionals = positionals
        self.positionalName = positionalName
    }
}

/// A command line, parsed against a ``CommandSpec``.
package struct ParsedArguments: Sendable, Equatable {
    /// Option values by long name, in the order given.
    package var values: [String: [String]] = [:]
    /// The flags given.
    package var flags: Set<String> = []
    /// The positional arguments.
    package var positionals: [String] = []

    /// The last value of `name`, if given.
    package func value(_ name: String) -> String? { values[name]?.last }

    /// Whether the flag `name` was given.
    package func has(_ name: String) -> Bool { flags.contains(name) }

    /// Parses `arguments` (the words after the command's name).
    ///
    /// Accepts `--name value`, `--name=value`, `-X value` and `--` (everything after it is positional).
    ///
    /// - Throws: ``UsageError`` for an unknown option, a missing value, a repeated single option,
    ///   a value given to a flag, or the wrong number of positional arguments.
    package init(_ arguments: [String], spec: CommandSpec) throws {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name: String
            var inlineValue: String?
            if argument.hasPrefix("--") {
                name = String(argument.dropFirst(2))
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
            } else {
                let short = String(argument.dropFirst())
                guard let long = spec.shortNames[short] else {
                    throw UsageError("bearer \(spec.name) has no option \(argument).", command: spec.name)
                }
                name = long
            }
            if spec.flags.contains(name) {
                guard inlineValue == nil else {
                    throw UsageError("--\(name) takes no value.", command: spec.name)
                }
                flags.insert(name)
            } else if spec.valueOptions.contains(name) || spec.repeatable.contains(name) {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else {
                        throw UsageError("--\(name) needs a value.", command: spec.name)
                    }
                    value = arguments[index]
                    index += 1
                }
                if values[name] != nil && !spec.repeatable.contains(name) {
                    throw UsageError("--\(name) was given more than once.", command: spec.name)
                }
                values[name, default: []].append(value)
            } else {
                throw UsageError("bearer \(spec.name) has no option --\(name).", command: spec.name)
            }
        }
        if flags.contains("help") { return }
        guard spec.positionals.contains(positionals.count) else {
            let wanted =
                spec.positionals.upperBound == 0
                ? "no arguments"
                : spec.positionals.lowerBound == spec.positionals.upperBound
                    ? "\(spec.positionals.lowerBound) argument (\(spec.positionalName))"
                    : "\(spec.positionals.lowerBound) or more arguments (\(spec.positionalName))"
            throw UsageError("bearer \(spec.name) takes \(wanted); got \(positionals.count).", command: spec.name)
        }
    }
}

/// A command line that cannot be run as given (exit code 64).
package struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    package let message: String
    /// The command whose help to point at, if any.
    package let command: String?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - message: What is wrong.
    ///   - command: The command whose help applies.
    package init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    /// The message and where to read more.
    package var description: String {
        message + " Run `bearer help\(command.map { " " + $0 } ?? "")` for usage."
    }
}
