import GRDB
import StratusServer

/// The SQLite schema, as GRDB migrations. Add a migration; never edit a shipped one.
enum SQLiteSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE containers (
                    id TEXT PRIMARY KEY NOT NULL,
                    api_token TEXT NOT NULL UNIQUE,
                    created_at INTEGER NOT NULL
                );
                CREATE TABLE users (
                    user_record_name TEXT PRIMARY KEY NOT NULL,
                    container_id TEXT NOT NULL REFERENCES containers(id),
                    username TEXT NOT NULL,
                    password_hash TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    UNIQUE (container_id, username)
                );
                CREATE TABLE sessions (
                    token_hash TEXT PRIMARY KEY NOT NULL,
                    user_record_name TEXT NOT NULL REFERENCES users(user_record_name),
                    container_id TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    expires_at INTEGER NOT NULL
                );
                CREATE INDEX sessions_expiry ON sessions(expires_at);
                CREATE TABLE change_sequence (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    value INTEGER NOT NULL
                );
                INSERT INTO change_sequence (id, value) VALUES (1, 0);
                CREATE TABLE databases (
                    id INTEGER PRIMARY KEY,
                    container_id TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    scope TEXT NOT NULL,
                    owner_record_name TEXT NOT NULL,
                    purged_sequence INTEGER NOT NULL DEFAULT 0,
                    UNIQUE (container_id, environment, scope, owner_record_name)
                );
                CREATE TABLE zones (
                    id INTEGER PRIMARY KEY,
                    database_id INTEGER NOT NULL REFERENCES databases(id),
                    zone_name TEXT NOT NULL,
                    change_sequence INTEGER NOT NULL,
                    purged_sequence INTEGER NOT NULL DEFAULT 0,
                    deleted INTEGER NOT NULL DEFAULT 0,
                    deleted_at INTEGER
                );
                CREATE UNIQUE INDEX zones_live_name ON zones(database_id, zone_name) WHERE deleted = 0;
                CREATE INDEX zones_changes ON zones(database_id, change_sequence);
                CREATE TABLE records (
                    zone_id INTEGER NOT NULL,
                    record_name TEXT NOT NULL,
                    record_type TEXT NOT NULL,
                    change_tag TEXT NOT NULL,
                    fields BLOB NOT NULL,
                    created_at INTEGER NOT NULL,
                    created_by TEXT NOT NULL,
                    created_device TEXT NOT NULL,
                    modified_at INTEGER NOT NULL,
                    modified_by TEXT NOT NULL,
                    modified_device TEXT NOT NULL,
                    parent TEXT,
                    share TEXT,
                    sequence INTEGER NOT NULL,
                    deleted INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (zone_id, record_name)
                ) WITHOUT ROWID;
                CREATE INDEX records_changes ON records(zone_id, sequence);
                CREATE TABLE record_references (
                    zone_id INTEGER NOT NULL,
                    target_name TEXT NOT NULL,
                    source_name TEXT NOT NULL,
                    action TEXT NOT NULL,
                    PRIMARY KEY (zone_id, target_name, source_name, action)
                ) WITHOUT ROWID;
                CREATE INDEX record_references_source ON record_references(zone_id, source_name);
                """)
        }
        migrator.registerMigration("v2-schema") { db in
            try db.execute(sql: """
                CREATE TABLE schema_record_types (
                    container_id TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    record_type TEXT NOT NULL,
                    PRIMARY KEY (container_id, environment, record_type)
                ) WITHOUT ROWID;
                CREATE TABLE schema_fields (
                    container_id TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    record_type TEXT NOT NULL,
                    field_name TEXT NOT NULL,
                    field_type TEXT NOT NULL,
                    indexes INTEGER NOT NULL,
                    PRIMARY KEY (container_id, environment, record_type, field_name)
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v3-record-index") { db in
            try db.execute(sql: """
                CREATE TABLE record_index (
                    zone_id INTEGER NOT NULL,
                    record_type TEXT NOT NULL,
                    field_name TEXT NOT NULL,
                    value NOT NULL,
                    record_name TEXT NOT NULL,
                    PRIMARY KEY (zone_id, record_type, field_name, value, record_name)
                ) WITHOUT ROWID;
                CREATE INDEX record_index_record ON record_index(zone_id, record_name);
                """)
        }
        migrator.registerMigration("v4-assets") { db in
            try db.execute(sql: """
                CREATE TABLE asset_blobs (
                    checksum TEXT PRIMARY KEY NOT NULL,
                    size INTEGER NOT NULL,
                    created_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE asset_uploads (
                    receipt_hash TEXT PRIMARY KEY NOT NULL,
                    database_id INTEGER NOT NULL,
                    zone_name TEXT NOT NULL,
                    record_name TEXT NOT NULL,
                    field_name TEXT NOT NULL,
                    uploaded_by TEXT NOT NULL,
                    checksum TEXT NOT NULL,
                    size INTEGER NOT NULL,
                    uploaded_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX asset_uploads_checksum ON asset_uploads(checksum);
                CREATE INDEX asset_uploads_age ON asset_uploads(uploaded_at);
                CREATE TABLE asset_references (
                    zone_id INTEGER NOT NULL,
                    record_name TEXT NOT NULL,
                    checksum TEXT NOT NULL,
                    PRIMARY KEY (zone_id, record_name, checksum)
                ) WITHOUT ROWID;
                CREATE INDEX asset_references_checksum ON asset_references(checksum, zone_id);
                """)
        }
        migrator.registerMigration("v5-subscriptions") { db in
            try db.execute(sql: """
                CREATE TABLE subscriptions (
                    database_id INTEGER NOT NULL,
                    owner TEXT NOT NULL,
                    subscription_id TEXT NOT NULL,
                    body TEXT NOT NULL,
                    PRIMARY KEY (database_id, owner, subscription_id)
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v6-sharing") { db in
            try db.execute(sql: """
                CREATE TABLE shares (
                    zone_id INTEGER NOT NULL,
                    record_name TEXT NOT NULL,
                    root_record_name TEXT,
                    short_guid TEXT NOT NULL UNIQUE,
                    public_permission TEXT NOT NULL,
                    PRIMARY KEY (zone_id, record_name)
                ) WITHOUT ROWID;
                CREATE TABLE share_participants (
                    zone_id INTEGER NOT NULL,
                    share_record_name TEXT NOT NULL,
                    user_record_name TEXT NOT NULL,
                    permission TEXT NOT NULL,
                    type TEXT NOT NULL,
                    status TEXT NOT NULL,
                    position INTEGER NOT NULL,
                    PRIMARY KEY (zone_id, share_record_name, user_record_name)
                ) WITHOUT ROWID;
                CREATE INDEX share_participants_user ON share_participants(user_record_name, zone_id);
                CREATE TABLE shared_zones (
                    user_record_name TEXT NOT NULL,
                    zone_id INTEGER NOT NULL,
                    active INTEGER NOT NULL,
                    sequence INTEGER NOT NULL,
                    PRIMARY KEY (user_record_name, zone_id)
                ) WITHOUT ROWID;
                CREATE INDEX shared_zones_changes ON shared_zones(user_record_name, sequence);
                CREATE INDEX shared_zones_zone ON shared_zones(zone_id, active);
                """)
        }
        migrator.registerMigration("v7-user-discovery") { db in
            try db.execute(sql: """
                ALTER TABLE users ADD COLUMN email TEXT;
                ALTER TABLE users ADD COLUMN discoverable INTEGER NOT NULL DEFAULT 0;
                CREATE UNIQUE INDEX users_email ON users(container_id, email) WHERE email IS NOT NULL;
                """)
        }
        migrator.registerMigration("v8-email-verification") { db in
            // An address counts only once its owner proved it; claims of it do not block each other.
            try db.execute(sql: """
                ALTER TABLE users ADD COLUMN email_verified INTEGER NOT NULL DEFAULT 0;
                DROP INDEX users_email;
                CREATE UNIQUE INDEX users_verified_email ON users(container_id, email) WHERE email_verified = 1;
                CREATE TABLE email_codes (
                    user_record_name TEXT PRIMARY KEY NOT NULL,
                    code_hash TEXT NOT NULL,
                    expires_at INTEGER NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v9-create-keys") { db in
            try db.execute(sql: "ALTER TABLE records ADD COLUMN create_key TEXT")
        }
        migrator.registerMigration("v10-server-keys") { db in
            try db.execute(sql: """
                CREATE TABLE server_keys (
                    key_id TEXT PRIMARY KEY NOT NULL,
                    container_id TEXT NOT NULL,
                    public_key TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    revoked_at INTEGER
                ) WITHOUT ROWID;
                CREATE INDEX server_keys_container ON server_keys(container_id, created_at);
                """)
        }
        migrator.registerMigration("v11-security-roles") { db in
            try db.execute(sql: """
                CREATE TABLE schema_roles (
                    container_id TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    role TEXT NOT NULL,
                    PRIMARY KEY (container_id, environment, role)
                ) WITHOUT ROWID;
                CREATE TABLE schema_grants (
                    container_id TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    record_type TEXT NOT NULL,
                    role TEXT NOT NULL,
                    permissions INTEGER NOT NULL,
                    PRIMARY KEY (container_id, environment, record_type, role)
                ) WITHOUT ROWID;
                CREATE TABLE user_roles (
                    container_id TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    user_record_name TEXT NOT NULL,
                    role TEXT NOT NULL,
                    PRIMARY KEY (container_id, environment, user_record_name, role)
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v12-apns") { db in
            try db.execute(sql: """
                CREATE TABLE apns_credentials (
                    container_id TEXT PRIMARY KEY NOT NULL,
                    key_id TEXT NOT NULL,
                    team_id TEXT NOT NULL,
                    topic TEXT NOT NULL,
                    private_key TEXT NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE apns_tokens (
                    container_id TEXT NOT NULL,
                    apns_token TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    user_record_name TEXT NOT NULL,
                    apns_environment TEXT NOT NULL,
                    registered_at INTEGER NOT NULL,
                    PRIMARY KEY (container_id, apns_token)
                ) WITHOUT ROWID;
                CREATE INDEX apns_tokens_user ON apns_tokens(container_id, environment, user_record_name, registered_at);
                """)
        }
        migrator.registerMigration("v13-backup") { db in
            try db.execute(sql: """
                CREATE TABLE store_epoch (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    epoch INTEGER NOT NULL
                );
                INSERT INTO store_epoch (id, epoch) VALUES (1, 0);
                CREATE TABLE asset_collection_holds (
                    holder TEXT PRIMARY KEY NOT NULL,
                    expires_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v14-accounts") { db in
            try db.execute(sql: """
                ALTER TABLE users ADD COLUMN disabled_at INTEGER;
                CREATE INDEX sessions_user ON sessions(user_record_name);
                """)
        }
        migrator.registerMigration("v15-console") { db in
            try db.execute(sql: """
                CREATE TABLE administrators (
                    username TEXT PRIMARY KEY NOT NULL,
                    password_hash TEXT NOT NULL,
                    created_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE console_sessions (
                    token_hash TEXT PRIMARY KEY NOT NULL,
                    username TEXT NOT NULL,
                    expires_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX console_sessions_user ON console_sessions(username);
                """)
        }
        migrator.registerMigration("v16-apns-token-sessions") { db in
            try db.execute(sql: """
                ALTER TABLE apns_tokens ADD COLUMN session_hash TEXT;
                CREATE INDEX apns_tokens_session ON apns_tokens(session_hash);
                """)
        }
        migrator.registerMigration("v17-web-origins") { db in
            try db.execute(sql: "ALTER TABLE containers ADD COLUMN web_origins TEXT NOT NULL DEFAULT ''")
        }
        migrator.registerMigration("v18-password-reset") { db in
            try db.execute(sql: """
                CREATE TABLE password_reset_codes (
                    code_hash TEXT PRIMARY KEY NOT NULL,
                    user_record_name TEXT NOT NULL,
                    expires_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX password_reset_codes_user ON password_reset_codes(user_record_name);
                """)
        }
        migrator.registerMigration("v19-apple-identities") { db in
            try db.execute(sql: """
                ALTER TABLE users ADD COLUMN apple_subject TEXT;
                ALTER TABLE users ADD COLUMN apple_email TEXT;
                ALTER TABLE users ADD COLUMN apple_email_verified INTEGER NOT NULL DEFAULT 0;
                CREATE UNIQUE INDEX users_apple_subject ON users(container_id, apple_subject);
                """)
        }
        migrator.registerMigration("v20-replay-keys-and-session-details") { db in
            try db.execute(sql: """
                CREATE TABLE replay_keys (
                    key TEXT PRIMARY KEY NOT NULL,
                    expires_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX replay_keys_expiry ON replay_keys(expires_at);
                ALTER TABLE sessions ADD COLUMN created_at INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE sessions ADD COLUMN last_used_at INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE sessions ADD COLUMN proven_at INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE sessions ADD COLUMN device TEXT NOT NULL DEFAULT '';
                ALTER TABLE sessions ADD COLUMN client_address TEXT NOT NULL DEFAULT '';
                """)
        }
        for migration in SQLSchema.migrations {
            migrator.registerMigration(migration.sqliteIdentifier) { db in try db.execute(sql: migration.sql(SQLDialect.sqlite.ddl)) }
        }
        // Record format 2 (see RecordFormatMigration): the old table renamed, the new one beside it;
        // the rows cross in steps (`migrate(_:)`), then the old table goes.
        migrator.registerMigration(recordFormat2) { db in
            try db.execute(sql: """
                ALTER TABLE records RENAME TO records_format_1;
                CREATE TABLE record_actors (
                    id INTEGER PRIMARY KEY,
                    user_record_name TEXT NOT NULL,
                    device_id TEXT NOT NULL
                );
                CREATE TABLE record_rows (
                    zone_id INTEGER NOT NULL,
                    record_name TEXT NOT NULL,
                    record_type TEXT NOT NULL,
                    change_tag TEXT,
                    fields BLOB NOT NULL,
                    created_at INTEGER NOT NULL,
                    created_by INTEGER NOT NULL,
                    modified_at INTEGER NOT NULL,
                    modified_by INTEGER NOT NULL,
                    parent TEXT,
                    share TEXT,
                    sequence INTEGER NOT NULL,
                    deleted INTEGER NOT NULL DEFAULT 0,
                    create_key TEXT
                );
                CREATE UNIQUE INDEX record_rows_name ON record_rows(zone_id, record_name);
                CREATE INDEX record_rows_changes ON record_rows(zone_id, sequence);
                CREATE TABLE record_format_migration (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    zone_id INTEGER,
                    record_name TEXT
                );
                INSERT INTO record_format_migration (id) VALUES (1);
                """)
        }
        migrator.registerMigration(recordFormat2Done) { db in
            try db.execute(sql: "DROP TABLE records_format_1; DROP TABLE record_format_migration;")
        }
        // Keys: a mail holding a code is sealed for its user (KeyVault; the key store is a file of its own).
        migrator.registerMigration("v26-sealed-mail") { db in
            try db.execute(sql: "ALTER TABLE mail_outbox ADD COLUMN sealed_for TEXT")
        }
        migrator.registerMigration(SQLSchema.passkeys.sqliteIdentifier) { db in try db.execute(sql: SQLSchema.passkeys.sql(SQLDialect.sqlite.ddl)) }
        migrator.registerMigration(SQLSchema.openID.sqliteIdentifier) { db in try db.execute(sql: SQLSchema.openID.sql(SQLDialect.sqlite.ddl)) }
        migrator.registerMigration(SQLSchema.signUpCodes.sqliteIdentifier) { db in try db.execute(sql: SQLSchema.signUpCodes.sql(SQLDialect.sqlite.ddl)) }
        migrator.registerMigration(SQLSchema.appleTokens.sqliteIdentifier) { db in try db.execute(sql: SQLSchema.appleTokens.sql(SQLDialect.sqlite.ddl)) }
        migrator.registerMigration(SQLSchema.recordLog.sqliteIdentifier) { db in try db.execute(sql: SQLSchema.recordLog.sql(SQLDialect.sqlite.ddl)) }
        migrator.registerMigration(SQLSchema.historyAccess.sqliteIdentifier) { db in try db.execute(sql: SQLSchema.historyAccess.sql(SQLDialect.sqlite.ddl)) }
        migrator.registerMigration(SQLSchema.historyDays.sqliteIdentifier) { db in try db.execute(sql: SQLSchema.historyDays.sql(SQLDialect.sqlite.ddl)) }
        migrator.registerMigration(SQLSchema.webhooks.sqliteIdentifier) { db in try db.execute(sql: SQLSchema.webhooks.sql(SQLDialect.sqlite.ddl)) }
        return migrator
    }

    /// The migrations that start and end the move to record format 2.
    static let recordFormat2 = "v24-record-format-2"
    static let recordFormat2Done = "v25-record-format-2-done"

    /// Migrates the database: every migration, with record format 2's rows copied in steps of
    /// their own transactions between the migration that starts it and the one that ends it.
    static func migrate(_ pool: DatabasePool) throws {
        let migrator = Self.migrator
        if try !pool.read({ try migrator.appliedIdentifiers($0) }).contains(recordFormat2Done) {
            try migrator.migrate(pool, upTo: recordFormat2)
            while try pool.write({ db in
                try ConnectionThread.run { try await RecordFormatMigration.step(in: SQLiteTransaction(db: db, epoch: 0)) }
            }) > 0 {}
        }
        try migrator.migrate(pool)
    }
}
