/// Fast paths for what clients send and read in bulk: `records/modify` requests written with
/// ``WireWriter``, and `records/*` and `changes/zone` responses read from a ``JSONParser`` tree.
/// The `Codable` conformances remain for everything else.

extension RecordsModifyRequest: WireWritable {
    package func write(to writer: inout WireWriter) throws {
        writer.raw("{\"operations\":[")
        for (index, operation) in operations.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.raw("{\"operationType\":")
            writer.string(operation.operationType.rawValue)
            writer.key("record")
            writer.record(operation.record, writingRemovals: true)
            if let keys = operation.desiredKeys { writer.key("desiredKeys"); writer.strings(keys) }
            if let createKey = operation.createKey { writer.key("createKey"); writer.string(createKey) }
            writer.raw("}")
        }
        writer.raw("]")
        if let zoneID {
            writer.key("zoneID")
            writer.zoneID(zoneID)
        }
        if let atomic {
            writer.key("atomic")
            writer.bool(atomic)
        }
        if let keys = desiredKeys { writer.key("desiredKeys"); writer.strings(keys) }
        writer.raw("}")
    }
}

extension WireWriter {
    /// `["a", "b"]`.
    package mutating func strings(_ values: [String]) {
        raw("[")
        for (index, value) in values.enumerated() {
            if index > 0 { raw(",") }
            string(value)
        }
        raw("]")
    }
}

extension RecordError: WireReadable {
    package init(json: JSONValue) throws(CloudKitError) {
        let object = try json.object("record error")
        let codeName = try object.required("serverErrorCode").string("serverErrorCode")
        let code = ServerErrorCode(rawValue: codeName) ?? .internalError
        let retryAfter = try object.optional("retryAfter").map { json throws(CloudKitError) in Int(try json.integer("retryAfter")) }
        self.init(recordName: try object.optionalString("recordName"),
                  error: CloudKitError(code, try object.optionalString("reason") ?? codeName, retryAfter: retryAfter),
                  uuid: try object.optionalString("uuid"),
                  serverRecord: try object.optional("serverRecord").map { json throws(CloudKitError) in try Record(json: json) })
    }
}

extension ItemResult: WireReadable where Success: WireReadable, Failure: WireReadable {
    package init(json: JSONValue) throws(CloudKitError) {
        if try json.object("result").optional("serverErrorCode") != nil {
            self = .failure(try Failure(json: json))
        } else {
            self = .success(try Success(json: json))
        }
    }
}

extension RecordsResponse: WireReadable {
    package init(json: JSONValue) throws(CloudKitError) {
        let list = try json.object("the response").required("records").array("records")
        var records: [RecordResult] = []
        records.reserveCapacity(list.count)
        for item in list { records.append(try RecordResult(json: item)) }
        self.init(records: records)
    }
}

extension ZoneError: WireReadable {
    package init(json: JSONValue) throws(CloudKitError) {
        let object = try json.object("zone error")
        let codeName = try object.required("serverErrorCode").string("serverErrorCode")
        self.init(zoneID: try ZoneID(json: try object.required("zoneID"), at: "zoneID"),
                  error: CloudKitError(ServerErrorCode(rawValue: codeName) ?? .internalError, try object.optionalString("reason") ?? codeName),
                  uuid: try object.optionalString("uuid"))
    }
}

extension ZoneChanges: WireReadable {
    package init(json: JSONValue) throws(CloudKitError) {
        let object = try json.object("zone changes")
        let list = try object.required("records").array("records")
        var records: [Record] = []
        records.reserveCapacity(list.count)
        for item in list { records.append(try Record(json: item)) }
        self.init(zoneID: try ZoneID(json: try object.required("zoneID"), at: "zoneID"),
                  syncToken: try object.required("syncToken").string("syncToken"), records: records,
                  moreComing: try object.optionalBool("moreComing") ?? false)
    }
}

extension ZoneChangesResponse: WireReadable {
    package init(json: JSONValue) throws(CloudKitError) {
        self.init(zones: try json.object("the response").required("zones").array("zones").map { json throws(CloudKitError) in
            try ZoneChangesResult(json: json)
        })
    }
}
