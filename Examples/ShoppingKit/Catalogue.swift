import Foundation
import GRDB
import StratusClient
import StratusData
import StratusSync

/// A product of the public catalogue: what Shopping's users publish for everyone to add to their
/// lists, with the aisle it is found in. A `Product` record of the public database.
public struct Product: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let recordType = "Product"
    public static let databaseTableName = "product"

    public var id: String
    public var name: String
    public var aisle: String

    public init(id: String, name: String, aisle: String) {
        self.id = id
        self.name = name
        self.aisle = aisle
    }
}

/// The public catalogue on a device: a read-only mirror of the public database's `Product`
/// records in a database file of its own, filled by the public database's change feed (what the
/// user may read there). Products are published to the public database directly, and come back
/// to every device, the publisher's too, with the feed.
final class Catalogue: Sendable {
    let database: DatabaseQueue
    let synced: SyncedDatabase
    private let publicDatabase: CloudDatabase

    static let table = SyncedTable(Product.self, recordType: Product.recordType, zone: .defaultZone, readOnly: true)

    init(directory: URL, container: Container, configure: (inout SyncEngine.Configuration) -> Void) throws {
        database = try DatabaseQueue(path: directory.appendingPathComponent("catalogue.sqlite").path)
        try database.write { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS product (id TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL DEFAULT '', aisle TEXT NOT NULL DEFAULT '')")
        }
        publicDatabase = container.publicCloudDatabase
        synced = try SyncedDatabase(writer: database, tables: [Self.table], database: publicDatabase, configure: configure)
    }

    /// Every product this device has, by aisle then name.
    func products() async throws -> [Product] {
        try await database.read { db in try Product.order(Column("aisle"), Column("name")).fetchAll(db) }
    }

    /// Publishes a product to the public database; it reaches this device with the next sync.
    func publish(_ name: String, aisle: String) async throws -> Product {
        let product = Product(id: "Product-\(UUID().uuidString)", name: name, aisle: aisle)
        _ = try await publicDatabase.save(CloudRecord(recordType: Product.recordType, recordID: RecordID(recordName: product.id),
                                                      fields: ["name": .string(name), "aisle": .string(aisle)]))
        return product
    }
}
