// swift-tools-version: 6.1
import PackageDescription

/// Where the client speaks through SwiftNIO rather than URLSession.
let nonApple: [Platform] = [.linux, .android, .windows, .openbsd, .wasi]

let package = Package(
    name: "Stratus",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "StratusCore", targets: ["StratusCore"]),
        .library(name: "StratusServer", targets: ["StratusServer"]),
        .library(name: "StratusSQLite", targets: ["StratusSQLite"]),
        .library(name: "StratusPostgreSQL", targets: ["StratusPostgreSQL"]),
        .library(name: "StratusClient", targets: ["StratusClient"]),
        .library(name: "StratusSync", targets: ["StratusSync"]),
        .library(name: "StratusData", targets: ["StratusData"]),
        .library(name: "StratusTesting", targets: ["StratusTesting"]),
        .executable(name: "stratus", targets: ["stratus"]),
        .executable(name: "stratus-bench", targets: ["StratusBench"]),
        .executable(name: "stratus-sim", targets: ["StratusSim"]),
        .executable(name: "stratus-fuzz", targets: ["StratusFuzz"]),
        .executable(name: "notes", targets: ["Notes"]),
        .executable(name: "shopping", targets: ["Shopping"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.5.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
    ],
    targets: [
        .target(
            name: "StratusCore",
            dependencies: []
        ),
        // On Apple platforms the client speaks through URLSession; elsewhere through SwiftNIO.
        .target(
            name: "StratusClient",
            dependencies: [
                "StratusCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket", condition: .when(platforms: nonApple)),
                .product(name: "Logging", package: "swift-log", condition: .when(platforms: nonApple)),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(platforms: nonApple)),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(platforms: nonApple)),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(platforms: nonApple)),
            ]
        ),
        .target(
            name: "StratusServer",
            dependencies: [
                "StratusCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "_NIOFileSystem", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ]
        ),
        // The storage drivers: the server's core opens a store through whichever its build lists.
        .target(
            name: "StratusSQLite",
            dependencies: [
                "StratusCore",
                "StratusServer",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "StratusPostgreSQL",
            dependencies: [
                "StratusCore",
                "StratusServer",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .target(
            name: "StratusSync",
            dependencies: [
                "StratusClient",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "StratusData",
            dependencies: [
                "StratusClient",
                "StratusSync",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // What tests and tools install in a process they run: crash moments and restored bugs.
        .target(
            name: "StratusHarness",
            dependencies: ["StratusSync"]
        ),
        .target(
            name: "StratusTesting",
            dependencies: [
                "StratusServer",
                "StratusSQLite",
                "StratusClient",
                "StratusSync",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .executableTarget(
            name: "stratus",
            dependencies: [
                "StratusServer",
                "StratusSQLite",
                "StratusPostgreSQL",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "NotesKit",
            dependencies: ["StratusClient", "StratusSync", "StratusData", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Examples/NotesKit"
        ),
        .executableTarget(
            name: "Notes",
            dependencies: [
                "NotesKit",
                "StratusClient",
                "StratusSync",
                "StratusHarness",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/Notes"
        ),
        .target(
            name: "ShoppingKit",
            dependencies: ["StratusClient", "StratusSync", "StratusData", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Examples/ShoppingKit"
        ),
        .executableTarget(
            name: "Shopping",
            dependencies: [
                "ShoppingKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/Shopping",
            exclude: ["Shopping.ckdb"]
        ),
        .executableTarget(
            name: "StratusBench",
            dependencies: [
                "StratusServer",
                "StratusSQLite",
                "StratusPostgreSQL",
                "StratusTesting",
                "StratusClient",
                "StratusSync",
                "StratusData",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "_NIOFileSystem", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "Benchmarks/StratusBench"
        ),
        .executableTarget(
            name: "StratusSim",
            dependencies: [
                "NotesKit",
                "ShoppingKit",
                "StratusClient",
                "StratusSync",
                "StratusData",
                "StratusServer",
                "StratusTesting",
                "StratusHarness",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Reliability/StratusSim"
        ),
        .target(
            name: "StratusFuzzTargets",
            dependencies: [
                "StratusCore",
                "StratusServer",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Reliability/FuzzTargets"
        ),
        .executableTarget(
            name: "StratusFuzz",
            dependencies: ["StratusFuzzTargets"],
            path: "Reliability/StratusFuzz"
        ),
        .testTarget(
            name: "StratusCoreTests",
            dependencies: ["StratusCore"]
        ),
        .testTarget(
            name: "StratusClientTests",
            dependencies: ["StratusTesting", "StratusClient", "StratusSync", "StratusServer"]
        ),
        .testTarget(
            name: "StratusSyncTests",
            dependencies: ["StratusTesting", "StratusClient", "StratusSync", "StratusServer", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "StratusDataTests",
            dependencies: ["StratusData", "StratusTesting", "StratusHarness", "StratusClient", "StratusSync", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "GuideTests",
            dependencies: ["StratusClient", "StratusSync", "StratusData", "StratusTesting", .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "Crypto", package: "swift-crypto")]
        ),
        .testTarget(
            name: "NotesTests",
            dependencies: ["NotesKit", "StratusTesting", "StratusClient", "StratusServer"]
        ),
        .testTarget(
            name: "ShoppingTests",
            dependencies: ["ShoppingKit", "StratusTesting", "StratusClient", "StratusServer"]
        ),
        .testTarget(
            name: "StratusServerTests",
            dependencies: [
                "StratusServer",
                "StratusSQLite",
                "StratusPostgreSQL",
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                "StratusTesting",
                "StratusFuzzTargets",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
