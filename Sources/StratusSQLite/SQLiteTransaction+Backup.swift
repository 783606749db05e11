import GRDB
import StratusServer

extension SQLiteTransaction {
    static func storeEpoch(in db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT epoch FROM store_epoch WHERE id = 1") ?? 0
    }
}
