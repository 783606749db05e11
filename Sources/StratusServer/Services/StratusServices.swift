/// The services of one server, sharing one storage.
package struct StratusServices: Sendable {
    package let storage: any StratusStorage
    package let auth: AuthService
    package let containers: ContainerService
    package let zones: ZoneService
    package let records: RecordService
    package let changes: ChangeService
    package let schema: SchemaService
    package let query: QueryService
    package let assets: AssetService

    init(storage: any StratusStorage, blobs: BlobStore, signer: AssetURLSigner, configuration: ServerConfiguration) {
        let directory = DatabaseDirectory(storage: storage)
        self.storage = storage
        auth = AuthService(storage: storage, hasher: PasswordHasher(log2Cost: configuration.passwordHashLog2Cost),
                           sessionLifetime: configuration.sessionLifetime)
        containers = ContainerService(storage: storage)
        zones = ZoneService(storage: storage, directory: directory, maxOperations: configuration.maxOperationsPerRequest)
        records = RecordService(storage: storage, directory: directory, maxOperations: configuration.maxOperationsPerRequest,
                                maxRecordBytes: configuration.maxRecordBytes, signer: signer)
        schema = SchemaService(storage: storage)
        query = QueryService(storage: storage, directory: directory, maxResultsLimit: configuration.maxResultsLimit, signer: signer)
        changes = ChangeService(storage: storage, directory: directory, maxResultsLimit: configuration.maxResultsLimit,
                                tombstoneRetention: configuration.tombstoneRetention, signer: signer)
        assets = AssetService(storage: storage, directory: directory, auth: auth, blobs: blobs, signer: signer,
                              maxAssetBytes: configuration.maxAssetBytes, maxTokens: configuration.maxResultsLimit,
                              uploadGracePeriod: configuration.assetUploadGracePeriod)
    }
}
