/// The tables both drivers make the same way, written once: each migration's DDL in the words a
/// dialect gives it (``SQLDialect/DDL``). `SQLiteSchema` and `PostgresSchema` (in the drivers) register these
/// after their own, each under its own identifier. A new table goes here unless it is one
/// driver's speciality. Add a migration; never edit a shipped one.
package enum SQLSchema {
    /// A migration of both drivers, known to each by its own identifier (the lists numbered apart
    /// before this one was shared).
    package struct Migration: Sendable {
        package let sqliteIdentifier: String
        package let postgresIdentifier: String
        package let sql: @Sendable (SQLDialect.DDL) -> String
    }

    package static let migrations: [Migration] = [
        // Mail waiting for the courier, written in the transaction of the request that sends it.
        Migration(sqliteIdentifier: "v21-mail-outbox", postgresIdentifier: "v11-mail-outbox") { t in """
            CREATE TABLE mail_outbox (
                id \(t.rowID),
                recipient TEXT NOT NULL,
                subject TEXT NOT NULL,
                body TEXT NOT NULL,
                decoy \(t.integer) NOT NULL,
                code_expires_at \(t.integer),
                created_at \(t.integer) NOT NULL,
                next_attempt_at \(t.integer) NOT NULL,
                attempts \(t.integer) NOT NULL,
                lease_until \(t.integer) NOT NULL
            );
            CREATE INDEX mail_outbox_due ON mail_outbox(next_attempt_at);
            """
        },
        // What administrators changed through the console and the CLI: who, when, from where, what.
        Migration(sqliteIdentifier: "v22-audit-log", postgresIdentifier: "v12-audit-log") { t in """
            CREATE TABLE audit_log (
                id \(t.rowID),
                at \(t.integer) NOT NULL,
                actor TEXT NOT NULL,
                origin TEXT NOT NULL,
                action TEXT NOT NULL,
                container_id \(t.key) NOT NULL,
                detail TEXT NOT NULL
            );
            CREATE INDEX audit_log_container ON audit_log(container_id, id);
            """
        },
        // Codes mailed to prove who a user is again (fresh proof), SHA-256 only, one per user.
        Migration(sqliteIdentifier: "v23-proof-codes", postgresIdentifier: "v13-proof-codes") { t in """
            CREATE TABLE proof_codes (
                user_record_name \(t.key) PRIMARY KEY NOT NULL REFERENCES users(user_record_name),
                code_hash \(t.key) NOT NULL,
                expires_at \(t.integer) NOT NULL,
                attempts \(t.integer) NOT NULL
            )\(t.withoutRowID);
            """
        },
    ]
    /// Passkeys (``PasskeyStore``): registered by each driver after its record format 2 and
    /// sealed-mail migrations, so it is not among ``migrations``, which come before them.
    package static let passkeys = Migration(sqliteIdentifier: "v27-passkeys", postgresIdentifier: "v17-passkeys") { t in """
        CREATE TABLE passkeys (
            container_id \(t.key) NOT NULL,
            credential_id \(t.key) NOT NULL,
            user_record_name \(t.key) NOT NULL REFERENCES users(user_record_name),
            user_handle \(t.blob) NOT NULL,
            public_key \(t.blob) NOT NULL,
            sign_count \(t.integer) NOT NULL,
            backup_eligible \(t.integer) NOT NULL,
            backed_up \(t.integer) NOT NULL,
            transports TEXT NOT NULL,
            name TEXT NOT NULL,
            created_at \(t.integer) NOT NULL,
            last_used_at \(t.integer),
            PRIMARY KEY (container_id, credential_id)
        )\(t.withoutRowID);
        CREATE INDEX passkeys_user ON passkeys(user_record_name);
        """
    }
    /// OpenID Connect and GitHub sign-in (``OpenIDStore``): registered by each driver after
    /// ``passkeys``.
    package static let openID = Migration(sqliteIdentifier: "v28-openid", postgresIdentifier: "v18-openid") { t in """
        CREATE TABLE openid_identities (
            container_id \(t.key) NOT NULL,
            issuer \(t.key) NOT NULL,
            subject \(t.key) NOT NULL,
            provider \(t.key) NOT NULL,
            user_record_name \(t.key) NOT NULL REFERENCES users(user_record_name),
            email TEXT,
            email_verified \(t.integer) NOT NULL,
            linked_at \(t.integer) NOT NULL,
            last_used_at \(t.integer),
            PRIMARY KEY (container_id, issuer, subject)
        )\(t.withoutRowID);
        CREATE UNIQUE INDEX openid_identities_user ON openid_identities(user_record_name, provider);
        CREATE TABLE openid_flows (
            state_hash \(t.key) PRIMARY KEY NOT NULL,
            container_id \(t.key) NOT NULL,
            environment \(t.key) NOT NULL,
            provider \(t.key) NOT NULL,
            sealed_verifier TEXT NOT NULL,
            nonce TEXT NOT NULL,
            browser_hash TEXT NOT NULL,
            redirect_uri TEXT NOT NULL,
            purpose TEXT NOT NULL,
            handoff TEXT NOT NULL,
            session_hash TEXT,
            expires_at \(t.integer) NOT NULL
        )\(t.withoutRowID);
        CREATE INDEX openid_flows_expiry ON openid_flows(expires_at);
        """
    }
    /// Codes mailed to addresses no account has, for sign-up by emailed code (``UserCodeStore``,
    /// ``UserCodePurpose/signUp``): held by the SHA-256 of the container and address, not a user.
    /// Registered by each driver after ``openID``.
    package static let signUpCodes = Migration(sqliteIdentifier: "v29-signup-codes", postgresIdentifier: "v19-signup-codes") { t in """
        CREATE TABLE signup_codes (
            user_record_name \(t.key) PRIMARY KEY NOT NULL,
            code_hash \(t.key) NOT NULL,
            expires_at \(t.integer) NOT NULL,
            attempts \(t.integer) NOT NULL
        )\(t.withoutRowID);
        """
    }
    /// Sign in with Apple's refresh tokens (sealed, with the client ID each was issued to), whether
    /// Apple turned the user's relay mail off, and the revocations waiting for Apple
    /// (``AppleTokenRevoker``). Registered by each driver after ``signUpCodes``.
    package static let appleTokens = Migration(sqliteIdentifier: "v30-apple-tokens", postgresIdentifier: "v20-apple-tokens") { t in """
        ALTER TABLE users ADD COLUMN apple_refresh_token TEXT;
        ALTER TABLE users ADD COLUMN apple_client_id TEXT;
        ALTER TABLE users ADD COLUMN apple_relay_mail_disabled \(t.integer) NOT NULL DEFAULT 0;
        CREATE INDEX users_apple_email ON users(apple_email);
        CREATE TABLE apple_revocations (
            id \(t.rowID),
            container_id \(t.key) NOT NULL,
            client_id TEXT NOT NULL,
            sealed_token TEXT NOT NULL,
            created_at \(t.integer) NOT NULL,
            next_attempt_at \(t.integer) NOT NULL,
            attempts \(t.integer) NOT NULL,
            lease_until \(t.integer) NOT NULL
        );
        CREATE INDEX apple_revocations_due ON apple_revocations(next_attempt_at);
        """
    }
    /// The record log (``RecordLogStore``): an entry per change of a record, with the version it
    /// replaced, kept for history's retention; and each device's burst of deletions in a zone,
    /// which the loss alarm counts (``LossAlarm``). Registered by each driver after ``appleTokens``.
    ///
    /// Entries are appended in row-id order (which follows time), so a write fills the table's last
    /// pages instead of splitting pages all over a tree ordered by record (measured: a table keyed
    /// by zone, name and sequence cost updates a third of their speed); the index finds a record's
    /// entries, and the purge walks the oldest row ids.
    package static let recordLog = Migration(sqliteIdentifier: "v31-record-log", postgresIdentifier: "v21-record-log") { t in """
        CREATE TABLE record_log (
            id \(t.rowID),
            zone_id \(t.integer) NOT NULL,
            record_name \(t.key) NOT NULL,
            sequence \(t.integer) NOT NULL,
            logged_at \(t.integer) NOT NULL,
            change \(t.integer) NOT NULL,
            actor \(t.integer) NOT NULL,
            cause \(t.key),
            record_type \(t.key) NOT NULL,
            version_type \(t.key),
            version_sequence \(t.integer),
            version_tag \(t.key),
            version_deleted \(t.integer),
            fields \(t.blob),
            created_at \(t.integer),
            created_by \(t.integer),
            modified_at \(t.integer),
            modified_by \(t.integer),
            parent \(t.key),
            share \(t.key)
        );
        CREATE INDEX record_log_record ON record_log(zone_id, record_name, sequence);
        CREATE TABLE deletion_bursts (
            zone_id \(t.integer) NOT NULL,
            actor \(t.integer) NOT NULL,
            started_at \(t.integer) NOT NULL,
            deleted \(t.integer) NOT NULL,
            zone_records \(t.integer),
            alarmed_at \(t.integer),
            PRIMARY KEY (zone_id, actor)
        )\(t.withoutRowID);
        """
    }
    /// The files kept versions refer to (a version's row in `version_assets` names its record and
    /// the sequence of the change that replaced it, as its log entry does), so that collection
    /// keeps them while the version is kept; and when each participant accepted a share (the
    /// zone's change sequence then), from which on they see a record's versions. Registered by
    /// each driver after ``recordLog``.
    package static let historyAccess = Migration(sqliteIdentifier: "v32-history-access", postgresIdentifier: "v22-history-access") { t in """
        CREATE TABLE version_assets (
            zone_id \(t.integer) NOT NULL,
            record_name \(t.key) NOT NULL,
            sequence \(t.integer) NOT NULL,
            checksum \(t.key) NOT NULL,
            PRIMARY KEY (zone_id, record_name, sequence, checksum)
        )\(t.withoutRowID);
        CREATE INDEX version_assets_checksum ON version_assets(checksum);
        ALTER TABLE share_participants ADD COLUMN accepted_sequence \(t.integer);
        """
    }

    /// How many days a container keeps record history, when it does not follow the server's
    /// `--history-days` (``StoredContainer/historyDays``). Registered by each driver after
    /// ``historyAccess``.
    package static let historyDays = Migration(sqliteIdentifier: "v33-history-days", postgresIdentifier: "v23-history-days") { t in
        "ALTER TABLE containers ADD COLUMN history_days \(t.integer);"
    }
    /// Webhook endpoints and their last delivery attempts (``WebhookStore``). Registered by each
    /// driver after ``historyDays``.
    package static let webhooks = Migration(sqliteIdentifier: "v34-webhooks", postgresIdentifier: "v24-webhooks") { t in """
        CREATE TABLE webhook_endpoints (
            id \(t.key) PRIMARY KEY,
            container_id \(t.key) NOT NULL,
            environment \(t.key) NOT NULL,
            url TEXT NOT NULL,
            scopes TEXT NOT NULL,
            record_types TEXT NOT NULL,
            zones TEXT NOT NULL,
            secret TEXT NOT NULL,
            previous_secret TEXT,
            previous_secret_until \(t.integer),
            state \(t.integer) NOT NULL,
            delivered_through \(t.integer) NOT NULL,
            epoch \(t.integer) NOT NULL,
            attempts \(t.integer) NOT NULL,
            failing_since \(t.integer),
            next_attempt_at \(t.integer) NOT NULL,
            created_at \(t.integer) NOT NULL,
            lease_owner \(t.key),
            lease_until \(t.integer) NOT NULL
        );
        CREATE TABLE webhook_attempts (
            id \(t.rowID),
            endpoint_id \(t.key) NOT NULL,
            event_id \(t.key) NOT NULL,
            attempted_at \(t.integer) NOT NULL,
            status \(t.integer) NOT NULL,
            latency_ms \(t.integer) NOT NULL,
            answer TEXT NOT NULL
        );
        CREATE INDEX webhook_attempts_endpoint ON webhook_attempts(endpoint_id, id);
        """
    }
}
