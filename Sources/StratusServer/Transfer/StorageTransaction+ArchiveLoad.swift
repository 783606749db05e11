import StratusCore

/// Archive items back into rows, through the storage seam: what differs between backends is how
/// a database's and a zone's row keep their ids (``StorageTransaction/insertArchivedDatabase(_:containerID:_:)``).
extension StorageTransaction {
    /// Stores one item of an archive being loaded, in the order the archive lists them.
    func loadArchiveItem(_ item: ArchiveItem, _ load: inout ArchiveLoad) async throws {
        let containerID = load.containerID
        switch item {
        case .container(let container):
            try await insertContainer(container)
        case .schema(let environment, let schema):
            try await replaceSchema(schema, containerID: containerID, environment: environment)
        case .user(let user):
            try await insertUser(StoredUser(userRecordName: user.userRecordName, containerID: containerID, username: user.username,
                                      passwordHash: user.passwordHash ?? "", createdAt: user.createdAt, email: user.email,
                                      discoverable: user.discoverable, emailVerified: user.emailVerified, disabledAt: user.disabledAt,
                                      apple: user.apple))
        case .userRole(let role):
            _ = try await setUserRole(role.role, granted: true, containerID: containerID, environment: role.environment, user: role.user)
        case .passkey(var passkey):
            passkey.containerID = containerID
            try await insertPasskey(passkey)
        case .openIDIdentity(var identity):
            identity.containerID = containerID
            try await insertOpenIDIdentity(identity)
        case .serverKey(var key):
            key.containerID = containerID
            try await insertServerKey(key)
        case .session(var session):
            session.containerID = containerID
            try await insertSession(session)
        case .apnsCredentials(let credentials):
            try await setAPNsCredentials(credentials, containerID: containerID)
        case .apnsToken(var token):
            token.containerID = containerID
            try await registerAPNsToken(token, maxPerUser: .max)
        case .database(let database):
            load.loaded(database: database.id, as: try await insertArchivedDatabase(database, containerID: containerID, load))
        case .zone(let zone):
            load.loaded(zone: zone.id, as: try await insertArchivedZone(zone, load))
        case .asset(let asset):
            try await insertAssetBlob(asset)
        case .record(let record):
            let zoneRowID = try load.zone(record.zone)
            try await saveRecord(record.stored(zoneRowID: zoneRowID, load),
                           references: record.references.map { StoredReference(sourceName: record.recordName, targetName: $0.target, action: $0.action) },
                           replacingReferences: false)
            if !record.assets.isEmpty {
                try await replaceAssetReferences(zoneRowID: zoneRowID, recordName: record.recordName, checksums: Set(record.assets))
            }
        case .logEntry(let entry):
            let zoneRowID = try load.zone(entry.zone)
            guard let change = RecordLogEntry.Change(rawValue: entry.change) else {
                throw TransferError("a log entry of \(entry.recordName) has the change \(entry.change)")
            }
            try await insertArchivedLogEntry(RecordLogEntry(zoneRowID: zoneRowID, recordName: entry.recordName, recordType: entry.recordType,
                                                            sequence: load.sequence(entry.sequence), change: change, stamp: entry.stamp,
                                                            cause: entry.cause, replaced: entry.version?.stored(zoneRowID: zoneRowID, load)),
                                             assets: entry.version?.assets ?? [])
        case .share(var share):
            share.zoneRowID = try load.zone(share.zoneRowID)
            try await saveShare(share)
        case .sharedZone(let entry):
            try await setSharedZone(user: entry.user, zoneRowID: try load.zone(entry.zone), active: entry.active, sequence: load.sequence(entry.sequence))
        case .subscription(var subscription):
            subscription.databaseID = try load.database(subscription.databaseID)
            try await saveSubscription(subscription)
        case .auditEntry(var entry):
            entry.containerID = containerID
            try await appendAudit(entry)
        case .webhookEndpoint(let endpoint):
            try await addWebhookEndpoint(endpoint.stored(containerID: containerID, cursor: try await recordLogPosition(before: nil), epoch: storeEpoch))
        }
        load.count(item)
    }
}

extension ArchivedRecord {
    /// The row as this store keeps it: in the zone the load made of the archive's, its sequence moved.
    func stored(zoneRowID: Int64, _ load: ArchiveLoad) -> StoredRecord {
        StoredRecord(zoneRowID: zoneRowID, recordName: recordName, recordType: recordType, changeTag: changeTag, fieldsJSON: fields,
                     created: created, modified: modified, parent: parent, share: share, sequence: load.sequence(sequence), deleted: deleted,
                     createKey: createKey)
    }
}
