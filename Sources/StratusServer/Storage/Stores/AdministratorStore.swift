/// The console's administrator accounts.
package protocol AdministratorStore {
    /// Inserts an administrator; `EXISTS` when the name is taken.
    func insertAdministrator(_ administrator: StoredAdministrator) async throws
    func administrator(username: String) async throws -> StoredAdministrator?
    /// Every administrator, by name.
    func administrators() async throws -> [StoredAdministrator]
    /// Deletes an administrator and their console sessions; false if there was none.
    func deleteAdministrator(username: String) async throws -> Bool
}
