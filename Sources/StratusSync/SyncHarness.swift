import Synchronization

/// What a test harness may see and steer in this process's sync: it hears the engine and the app
/// reach named moments (``SyncMoment``), and may ask them to take the path of a bug fixed since
/// (``FixedBug``). `package`: no app can install one. The harnesses themselves (the crash-window
/// tests' and `stratus-sim --reverting-fix`'s) live in the StratusHarness target, which only tests
/// and tools link; without one installed, every moment passes unheard and every fix holds.
package protocol SyncHarness: Sendable {
    /// The engine or the app reached `moment`.
    func reached(_ moment: SyncMoment)
    /// Whether the engine should behave as it did before `bug` was fixed.
    func restores(_ bug: FixedBug) -> Bool
}

/// The harness of this process, if one is installed.
package enum InstalledHarness {
    private static let harness = Mutex<(any SyncHarness)?>(nil)

    /// Installs `harness` for the whole process (nil removes it).
    package static func install(_ harness: (any SyncHarness)?) {
        self.harness.withLock { $0 = harness }
    }

    /// Tells the installed harness that `moment` was reached.
    package static func reached(_ moment: SyncMoment) {
        harness.withLock { $0 }?.reached(moment)
    }

    /// Whether the installed harness restores `bug`; false without one.
    package static func restores(_ bug: FixedBug) -> Bool {
        harness.withLock { $0 }?.restores(bug) ?? false
    }
}

/// Moments in a sync at which losing the process must lose nothing: a crash-window test ends the
/// process at one, starts the app again on the same files, and checks that nothing committed was
/// lost and nothing applied twice.
package enum SyncMoment: String, Sendable, CaseIterable {
    /// A fetched page with changes arrived; its transaction (records, local data, token) has not
    /// begun.
    case fetchedPageArrived = "sync.fetchedPageArrived"
    /// A fetched page's transaction committed changes; the delegate has not heard of them.
    case fetchedPageCommitted = "sync.fetchedPageCommitted"
    /// The server answered a sent batch; its outcome is not recorded.
    case sentBatchAnswered = "sync.sentBatchAnswered"
    /// An app's local change committed; nothing was sent.
    case localChangeCommitted = "app.localChangeCommitted"
}

/// Bugs fixed in the engine that a harness may restore, so that a check shows the simulation
/// would find them again.
package enum FixedBug: String, Sendable {
    /// Issue 33, item 1: a conflict's server version is applied without downloading its files,
    /// and a row of only some columns is upserted — the Notes wedge (`NOT NULL constraint failed:
    /// note.text`).
    case partialConflictApply
}
