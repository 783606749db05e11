#!/usr/bin/env bash
# How long a small app package takes to build from clean, on this machine: its own Package.swift depends on a
# checkout of Stratus by path, its library adds StratusData and its test target adds StratusTesting, with one
# test that starts a TestCloud and saves a record. Prints the build time and runs the test.
#
#     scripts/app-build-time.sh [CHECKOUT]        (default: this checkout)
set -euo pipefail
checkout=$(cd "${1:-$(dirname "$0")/..}" && pwd)
app=$(mktemp -d /tmp/stratus-app.XXXXXX)
trap 'rm -rf "$app"' EXIT
mkdir -p "$app/Sources/App" "$app/Tests/AppTests"
cat > "$app/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "App",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(name: "Stratus", path: "$checkout")],
    targets: [
        .target(name: "App", dependencies: [.product(name: "StratusData", package: "Stratus")]),
        .testTarget(name: "AppTests", dependencies: ["App", .product(name: "StratusTesting", package: "Stratus")]),
    ]
)
SWIFT
cat > "$app/Sources/App/Note.swift" <<'SWIFT'
import StratusClient

/// The app's one record type.
public func makeNote(_ text: String) -> CloudRecord {
    var note = CloudRecord(recordType: "Note", recordID: RecordID(recordName: "note"))
    note["text"] = .string(text)
    return note
}
SWIFT
cat > "$app/Tests/AppTests/NoteTests.swift" <<'SWIFT'
import App
import StratusClient
import StratusTesting
import Testing

@Test func savesANote() async throws {
    try await TestCloud.with { cloud in
        let alice = try await cloud.signUp("alice")
        let saved = try await alice.privateCloudDatabase.save(makeNote("hello"))
        #expect(saved["text"] == .string("hello"))
    }
}
SWIFT
cd "$app"
swift package resolve >/dev/null
start=$(date +%s)
swift build --build-tests 2>&1 | tail -3
end=$(date +%s)
echo "app package: clean debug build of App and AppTests: $((end - start)) s (Stratus at $checkout, $(git -C "$checkout" rev-parse --short HEAD))"
swift test --skip-build 2>&1 | tail -3
