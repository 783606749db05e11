import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A program run as a child process with its standard output (and, if asked, its standard error)
/// read through a pipe: how tests and the reliability tools start `stratus` and other tools.
///
/// Spawned with `posix_spawn` rather than Foundation's `Process`, whose `run()` crashed (a bad
/// read in `memmove`) about once in a few hundred starts made while other threads were busy.
package final class ChildProcess: Sendable {
    /// The child's process ID; `nil` once it has been reaped.
    package var processIdentifier: pid_t? { running.withLock { $0.pid } }
    /// The child's process ID and the read end of its output, kept open until the child is
    /// reaped, so the child never writes to a closed pipe; both nil once it is reaped.
    private let running = Mutex<(pid: pid_t?, output: FileHandle?)>((nil, nil))

    /// Starts `executable` with `arguments` (not including the program name).
    ///
    /// - Parameters:
    ///   - standardError: Whether the child's standard error goes into the same pipe as its
    ///     standard output; otherwise it goes to `/dev/null`.
    ///   - environment: Variables set for the child on top of this process's environment.
    package init(_ executable: String, _ arguments: [String], capturingStandardError standardError: Bool = false,
                environment: [String: String] = [:]) throws {
        var pipe: [Int32] = [0, 0]
        guard Self.makePipe(&pipe) == 0 else { throw ChildProcessError("pipe failed: errno \(errno)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        if standardError {
            posix_spawn_file_actions_adddup2(&actions, pipe[1], 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addclose(&actions, pipe[0])
        posix_spawn_file_actions_addclose(&actions, pipe[1])
        // Nothing else of this process's goes to the child: a listening socket it inherited (NIO
        // does not open every socket close-on-exec) kept a test server from binding its port again
        // on restart for as long as the child lived.
        _ = Self.closeFrom?(&actions, 3)
        var argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        var envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for variable in envp { free(variable) } }
        var child: pid_t = 0
        let status = posix_spawnp(&child, executable, &actions, nil, &argv, &envp)
        close(pipe[1])
        let output = FileHandle(fileDescriptor: pipe[0], closeOnDealloc: true)
        guard status == 0 else { throw ChildProcessError("could not start \(executable): errno \(status)") }
        running.withLock { $0 = (child, output) }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc
    /// module does not declare: closes every descriptor from the given one up in the child.
    private static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
        #else
        return nil
        #endif
    }()

    /// Runs a program to its end and returns its exit status and everything it wrote.
    package static func run(_ executable: String, _ arguments: [String], capturingStandardError: Bool = true,
                           environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let child = try ChildProcess(executable, arguments, capturingStandardError: capturingStandardError, environment: environment)
        let output = child.readToEnd()
        return (child.wait(), output)
    }

    /// Runs a program to its end on a thread of its own, so that waiting for it holds none of
    /// the threads tasks run on (a server in this process may be what the program waits for).
    package static func run(_ executable: String, _ arguments: [String], capturingStandardError: Bool = true,
                           environment: [String: String] = [:]) async throws -> (status: Int32, output: String) {
        try await onThreadOfItsOwn {
            try run(executable, arguments, capturingStandardError: capturingStandardError, environment: environment) as (Int32, String)
        }
    }

    /// ``read(until:)`` on a thread of its own, so that waiting holds none of the threads tasks
    /// run on.
    package func read(until isComplete: @escaping @Sendable (String) -> Bool) async throws -> String {
        try await Self.onThreadOfItsOwn { try self.read(until: isComplete) }
    }

    /// ``readToEnd()`` on a thread of its own, so that waiting holds none of the threads tasks
    /// run on.
    package func readToEnd() async -> String {
        (try? await Self.onThreadOfItsOwn { self.readToEnd() }) ?? ""
    }

    /// Runs blocking `work` on a new thread and waits for it without blocking a task's thread.
    package static func onThreadOfItsOwn<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    /// Reads the child's output until `isComplete` holds for all of it read so far, and returns
    /// it; throws if the child closes its output first.
    package func read(until isComplete: (String) -> Bool) throws -> String {
        var text = ""
        while !isComplete(text) {
            guard let chunk = readChunk() else {
                throw ChildProcessError("the child process ended its output before it was complete: \(text)")
            }
            text += chunk
        }
        return text
    }

    /// Blocks until the child writes something and returns it; `nil` once its output has ended.
    package func readChunk() -> String? {
        guard let chunk = running.withLock({ $0.output })?.availableData, !chunk.isEmpty else { return nil }
        return String(decoding: chunk, as: UTF8.self)
    }

    /// Reads the child's output to its end.
    package func readToEnd() -> String {
        String(decoding: running.withLock({ $0.output })?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
    }

    /// Sends `signal` to the child and reaps it; returns its wait status.
    @discardableResult
    package func end(with signal: Int32) -> Int32 {
        send(signal)
        return wait()
    }

    /// Sends `signal` to the child, if it has not been reaped.
    package func send(_ signal: Int32) {
        if let processIdentifier { kill(processIdentifier, signal) }
    }

    /// Waits for the child to exit and returns its exit status (128 + the signal if a signal
    /// ended it).
    @discardableResult
    package func wait() -> Int32 {
        guard let pid = processIdentifier else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        running.withLock { $0 = (nil, nil) }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// Makes the pipe close-on-exec, so that no other child spawned later inherits its write end
    /// (which would hold this child's output open, and its reader waiting, as long as that other
    /// child lives); the file actions give this child its copies. (`pipe2` would close the short
    /// window before `fcntl`, but Swift's Glibc module does not export it.)
    private static func makePipe(_ descriptors: inout [Int32]) -> Int32 {
        #if canImport(Glibc)
        guard Glibc.pipe(&descriptors) == 0 else { return -1 }
        #else
        guard Darwin.pipe(&descriptors) == 0 else { return -1 }
        #endif
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return 0
    }
}

/// A child process could not be started or ended its output early.
package struct ChildProcessError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
