import Foundation
import StratusServer

/// Runs asynchronous storage work on the thread that holds a SQLite connection.
///
/// GRDB lends a connection to a synchronous closure on the connection's own dispatch queue, and
/// checks that every use of it happens there. The storage seam is asynchronous (so that a
/// network database can suspend between statements), so ``run(_:)`` bridges the two: called
/// from inside GRDB's closure, it starts `body` as a task whose executor preference is this
/// thread, and runs the task's jobs right here until it finishes. Nonisolated async code (all of
/// a transaction's work) runs on this thread, where the connection is valid; a hop to an actor
/// comes back here. The thread blocks meanwhile, which is what a GRDB closure does anyway.
///
/// SQLite's work never suspends, so a body usually finishes in the job that starts it.
final class ConnectionThread: TaskExecutor, @unchecked Sendable {
    /// Guards `jobs` and `finished`, and wakes ``drain()`` when either changes.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false
    /// Whether `body` may wait for work on another executor (see ``run(_:mayWaitElsewhere:)``).
    private let mayWaitElsewhere: Bool

    private init(mayWaitElsewhere: Bool) {
        self.mayWaitElsewhere = mayWaitElsewhere
    }

    /// Runs `body` to completion on the calling thread and returns its result.
    ///
    /// - parameter mayWaitElsewhere: false when the calling thread is one of the cooperative
    ///   pool's (a read, lent its connection on the caller's thread): a body that then waits for
    ///   an actor holds a thread that actor may need, so debug builds stop there.
    static func run<T>(_ body: () async throws -> T, mayWaitElsewhere: Bool = true) throws -> T {
        let thread = ConnectionThread(mayWaitElsewhere: mayWaitElsewhere)
        // The task runs only while this frame waits below, on this thread; it does not outlive it.
        return try withoutActuallyEscaping(body) { body in
            let work = UnsafeTransfer(body)
            let outcome = UnsafeTransfer(OutcomeBox<T>())
            Task(executorPreference: thread) {
                do {
                    outcome.value.result = .success(try await work.value())
                } catch {
                    outcome.value.result = .failure(error)
                }
                thread.finish()
            }
            thread.drain()
            guard let result = outcome.value.result else { preconditionFailure("the task finished without a result") }
            return try result.get()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    /// Runs queued jobs until the task has finished.
    private func drain() {
        while true {
            condition.lock()
            while jobs.isEmpty && !finished {
                assert(mayWaitElsewhere, "a storage read's body waited for another executor while holding a thread of the cooperative pool")
                condition.wait()
            }
            guard !jobs.isEmpty else {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Where the task of ``ConnectionThread/run(_:mayWaitElsewhere:)`` leaves its result.
private final class OutcomeBox<T> {
    var result: Result<T, any Error>?
}

/// Carries a value into the task of ``ConnectionThread/run(_:mayWaitElsewhere:)``, which runs on the thread that
/// owns the value while its owner waits.
private struct UnsafeTransfer<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
