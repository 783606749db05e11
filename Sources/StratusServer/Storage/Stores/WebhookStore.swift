import StratusCore

/// Webhook endpoints, their progress through the record log, and their delivery attempts
/// (``WebhookCourier``). Events are the record log's entries (``RecordLogStore``), read here by
/// position; the log keeps an entry while an endpoint not disabled has not passed it.
package protocol WebhookStore {
    func addWebhookEndpoint(_ endpoint: StoredWebhookEndpoint) async throws
    /// The endpoints of a container (of every container, without one), oldest first.
    func webhookEndpoints(containerID: String?) async throws -> [StoredWebhookEndpoint]
    func webhookEndpoint(id: String) async throws -> StoredWebhookEndpoint?
    /// Stores what an administrator changed (URL, filter, secrets, state, cursor and tries), and
    /// releases the endpoint's lease: the courier holding it stops.
    func updateWebhookEndpoint(_ endpoint: StoredWebhookEndpoint) async throws
    /// Removes an endpoint and its attempts; false if there was none.
    func removeWebhookEndpoint(id: String) async throws -> Bool
    /// Leases the endpoint to `owner` (a courier) until `leaseUntil` if no other courier holds a
    /// live lease on it at `now`; whether `owner` holds it.
    func claimWebhookEndpoint(id: String, owner: String, now: Int64, leaseUntil: Int64) async throws -> Bool
    /// Releases every lease `owner` holds (it stops).
    func releaseWebhookLeases(owner: String) async throws
    /// Stores a courier's progress, if `owner` still holds the endpoint's lease (else false: another
    /// courier took it over).
    func recordWebhookProgress(_ progress: WebhookProgress, owner: String) async throws -> Bool
    /// Keeps the endpoint's attempts, in order, and of its attempts only the last `keeping` made
    /// since `since` (ms).
    func appendWebhookAttempts(_ attempts: [WebhookAttempt], endpointID: String, keeping: Int, since: Int64) async throws
    /// The endpoint's last attempts, newest first, at most `limit`.
    func webhookAttempts(endpointID: String, limit: Int) async throws -> [WebhookAttempt]
    /// The record log's entries of the container and environment after `position`, in order, at
    /// most `limit`: a zone's deletion once, without the deletions of its records.
    func webhookEvents(containerID: String, environment: ContainerEnvironment, after position: Int64, limit: Int) async throws -> [WebhookLogEvent]
    /// The last position of the record log logged before `time` (ms; any time, without one), 0 for none.
    func recordLogPosition(before time: Int64?) async throws -> Int64
    /// The first position the record log still holds, nil when empty.
    func firstRecordLogPosition() async throws -> Int64?
    /// Moves the cursor of every endpoint behind `position` to it: events logged before the
    /// backlog's bound are no longer kept for them. Returns how many moved.
    func passWebhookBacklog(before position: Int64) async throws -> Int
    /// Moves every endpoint's cursor to `position`, keeping its epoch (the store was restored:
    /// each endpoint hears `database.restored`, then what is logged after).
    func resetWebhookCursors(to position: Int64) async throws
}
