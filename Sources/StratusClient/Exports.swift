// The CloudKit model an app uses with the client, from StratusCore. Only these are re-exported:
// the wire layer (request and response bodies, the JSON reader and writer, the server's error
// type) is package-visible, and the schema types belong to the server's administration.

@_exported import struct StratusCore.Asset
@_exported import struct StratusCore.Location
@_exported import struct StratusCore.Reference
@_exported import enum StratusCore.FieldValue
@_exported import enum StratusCore.FieldType
@_exported import enum StratusCore.ScalarType
@_exported import struct StratusCore.RecordStamp
@_exported import struct StratusCore.RecordPointer

@_exported import enum StratusCore.ContainerEnvironment
@_exported import enum StratusCore.DatabaseScope
@_exported import struct StratusCore.ZoneID
@_exported import struct StratusCore.Zone
@_exported import enum StratusCore.ZoneDeletionReason

@_exported import struct StratusCore.CloudQuery
@_exported import typealias StratusCore.Query
@_exported import struct StratusCore.QueryFilter
@_exported import struct StratusCore.QuerySort
@_exported import enum StratusCore.QueryComparator

@_exported import struct StratusCore.CloudSubscription
@_exported import typealias StratusCore.Subscription
@_exported import struct StratusCore.NotificationInfo
@_exported import struct StratusCore.PushNotification
@_exported import enum StratusCore.QueryNotificationReason

@_exported import struct StratusCore.ShareKeys
@_exported import struct StratusCore.ShareParticipant
@_exported import enum StratusCore.SharePermission
@_exported import enum StratusCore.ParticipantType
@_exported import enum StratusCore.AcceptanceStatus
@_exported import struct StratusCore.UserIdentity
@_exported import struct StratusCore.LookupInfo

@_exported import enum StratusCore.ServerErrorCode
