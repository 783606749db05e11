#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import StratusSync

/// The harness the crash-window tests and the simulation install in the process they run: it
/// kills the process with `SIGKILL` (as the system kills an app, with no chance to flush or close
/// anything) when the armed moment is reached, and restores the fixed bugs it is given.
package struct ProcessHarness: SyncHarness {
    /// The moment at which the process is killed; nil for none.
    package var crashMoment: SyncMoment?
    /// The fixed bugs put back.
    package var restoredBugs: Set<FixedBug>

    /// A harness that kills the process at `crashMoment` and restores `restoredBugs`.
    package init(crashMoment: SyncMoment? = nil, restoredBugs: Set<FixedBug> = []) {
        self.crashMoment = crashMoment
        self.restoredBugs = restoredBugs
    }

    /// The variable naming the moment to crash at, as the crash-window tests set it for an app
    /// they run.
    package static let crashMomentVariable = "STRATUS_CRASH_POINT"

    /// The harness `environment` asks for, if any: ``crashMomentVariable`` names the moment.
    package static func from(environment: [String: String]) -> ProcessHarness? {
        environment[crashMomentVariable].flatMap(SyncMoment.init(rawValue:)).map { ProcessHarness(crashMoment: $0) }
    }

    package func reached(_ moment: SyncMoment) {
        guard moment == crashMoment else { return }
        kill(getpid(), SIGKILL)
    }

    package func restores(_ bug: FixedBug) -> Bool {
        restoredBugs.contains(bug)
    }
}
