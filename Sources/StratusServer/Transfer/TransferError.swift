/// Why a backup, a restore, an export or an import stopped, in words for the person running it.
public struct TransferError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
