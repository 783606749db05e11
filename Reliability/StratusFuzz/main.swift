import Foundation
import StratusFuzzTargets

// `stratus-fuzz TARGET [libFuzzer options] [corpus directories]`
//
// Built by `scripts/fuzz.sh` with `-sanitize=fuzzer,address -DFUZZING`, this hands the target
// to libFuzzer's driver. In an ordinary build it replays the files and directories given (a
// corpus, or a crash libFuzzer saved) through the target, so a failure found by fuzzing can be
// reproduced and debugged without the sanitizers.

let arguments = CommandLine.arguments
/// libFuzzer starts copies of this program (to merge corpora, to fork) with its own options only,
/// so the target travels in the environment too.
let targetVariable = "STRATUS_FUZZ_TARGET"
let named = arguments.count >= 2 ? FuzzTarget(rawValue: arguments[1]) : nil
let inherited = ProcessInfo.processInfo.environment[targetVariable].flatMap(FuzzTarget.init(rawValue:))
guard let target = named ?? inherited else {
    let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
    FileHandle.standardError.write(Data("usage: stratus-fuzz \(names) [options] [corpus…]\n".utf8))
    exit(64)
}

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The target libFuzzer calls; set once before the driver starts.
nonisolated(unsafe) private var selected = FuzzTarget.json

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    selected.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

selected = target
setenv(targetVariable, target.rawValue, 1)
// libFuzzer reads its own options; the target's name is not one of them.
var driverArguments = named == nil ? arguments : [arguments[0]] + arguments.dropFirst(2)
var cArguments = driverArguments.map { strdup($0) } + [nil]
var argc = CInt(driverArguments.count)
let status = cArguments.withUnsafeMutableBufferPointer { buffer in
    var argv = buffer.baseAddress!
    return runDriver(&argc, &argv, testOneInput)
}
exit(status)
#else
var replayed = 0
for path in arguments.dropFirst(named == nil ? 1 : 2) {
    for file in FuzzCorpus.files(at: URL(fileURLWithPath: path)) {
        let bytes = (try? Data(contentsOf: file)) ?? Data()
        bytes.withUnsafeBytes { target.run($0) }
        replayed += 1
    }
}
print("\(target.rawValue): \(replayed) inputs replayed, no failure")
#endif
