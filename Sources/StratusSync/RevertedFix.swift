import Synchronization

/// Switches that put a fixed bug back, so that a check can show the simulation would find it
/// (`stratus-sim simulate --app notes --reverting-fix`). `package`: no app can reach them, and
/// nothing but that check turns one on.
package enum RevertedFix {
    private static let partialConflictApply = Atomic<Bool>(false)

    /// Issue 33, item 1: a conflict's server version is applied without downloading its files,
    /// and a row of only some columns is upserted — the Notes wedge (`NOT NULL constraint failed:
    /// note.text`).
    package static var conflictAppliesPartialRecord: Bool {
        get { partialConflictApply.load(ordering: .relaxed) }
        set { partialConflictApply.store(newValue, ordering: .relaxed) }
    }
}
