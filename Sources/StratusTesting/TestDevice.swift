import Foundation
import StratusClient
import StratusSync

/// One device of a test user: its own container session, a fault-injecting transport, a sync
/// engine with its own state file, and local data that follows the engine's events (the store is
/// the engine's delegate).
public actor TestDevice {
    /// The device's name, also its `deviceID` on the server.
    public nonisolated let name: String
    /// Where the device keeps its engine state and local records.
    public nonisolated let directory: URL
    /// The device's own container session.
    public nonisolated let container: Container
    /// The transport the device sends through, for injecting faults.
    public nonisolated let transport: FaultInjectingTransport
    /// The device's local records.
    public private(set) var store: DeviceRecordStore
    /// The device's sync engine (a new one after ``restart()``).
    public private(set) var engine: SyncEngine
    private let configure: @Sendable (inout SyncEngine.Configuration) -> Void
    /// The device's push connection, once ``connectPush()`` opened it.
    public private(set) var push: PushConnection?

    /// The database the device's engine syncs.
    public nonisolated let scope: DatabaseScope

    /// A device syncing `scope` of `container`'s signed-in user, keeping its state in `directory`;
    /// `transport` must be the one `container` sends through.
    public init(name: String, directory: URL, container: Container, transport: FaultInjectingTransport, scope: DatabaseScope,
                configure: @escaping @Sendable (inout SyncEngine.Configuration) -> Void) throws {
        self.scope = scope
        self.name = name
        self.directory = directory
        self.container = container
        self.transport = transport
        self.configure = configure
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        (store, engine) = try Self.open(directory: directory, database: container.database(with: scope), configure: configure)
    }

    private static func open(directory: URL, database: CloudDatabase, configure: @Sendable (inout SyncEngine.Configuration) -> Void) throws
        -> (DeviceRecordStore, SyncEngine) {
        let store = DeviceRecordStore(file: directory.appendingPathComponent("records.json"))
        var configuration = SyncEngine.Configuration(database: database, stateURL: directory.appendingPathComponent("sync-state.sqlite"),
                                                     delegate: store)
        configuration.automaticallySync = false
        configure(&configuration)
        return (store, try SyncEngine(configuration: configuration))
    }

    /// Saves a record locally and queues it: what an app does on an edit.
    public func save(_ record: CloudRecord) async throws {
        await store.put(record)
        try await engine.add(pendingRecordZoneChanges: [.saveRecord(record.recordID)])
    }

    /// Deletes a record locally and queues the deletion.
    public func delete(_ id: RecordID) async throws {
        await store.remove(id)
        try await engine.add(pendingRecordZoneChanges: [.deleteRecord(id)])
    }

    /// The local copy of a record.
    public func record(_ id: RecordID) async -> CloudRecord? { await store.record(id) }

    /// Every local record.
    public func records() async -> [RecordID: CloudRecord] { await store.records }

    /// Sends then fetches; the engine's events are applied locally when it returns.
    public func sync() async throws {
        try await engine.syncNow()
    }

    /// Takes the device off the network, or back on.
    public func setOffline(_ offline: Bool) { transport.setOffline(offline) }

    /// Opens the device's push connection; the engine fetches on each notification.
    @discardableResult
    public func connectPush() async -> PushConnection {
        let push = self.push ?? PushConnection(container: container, minimumBackoff: .milliseconds(50), maximumBackoff: .milliseconds(500))
        self.push = push
        await push.start()
        await engine.listen(to: push)
        return push
    }

    /// Simulates the app being killed and launched again: the engine is dropped without any
    /// shutdown and reopened on the same state file, local data is read back from disk.
    public func restart() throws {
        (store, engine) = try Self.open(directory: directory, database: container.database(with: scope), configure: configure)
        if let push { Task { await engine.listen(to: push) } }
    }
}

extension TestCloud {
    /// A new device for a signed-in user's container: its own directory, transport and engine.
    public func device(_ name: String, of user: String, database scope: DatabaseScope = .private,
                       configure: @escaping @Sendable (inout SyncEngine.Configuration) -> Void = { _ in }) async throws -> TestDevice {
        let clock = self.clock
        let transport = FaultInjectingTransport(clock: clock)
        let container = container(deviceID: name, transport: transport)
        try await container.signIn(username: user, password: "password-\(user)")
        return try TestDevice(name: name, directory: root.appendingPathComponent("devices/\(name)"),
                              container: container, transport: transport, scope: scope) { configuration in
            configuration.clock = clock
            configure(&configuration)
        }
    }

    /// Creates an account (username `name`, password `password-<name>`) and returns its username.
    public func createUser(_ name: String) async throws -> String {
        let username = "\(name)-\(UUID().uuidString.prefix(8))"
        try await container().signUp(username: username, password: "password-\(username)")
        return username
    }
}
