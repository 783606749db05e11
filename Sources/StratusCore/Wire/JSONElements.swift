/// The elements of a JSON array, each read when it is needed: either left as text by
/// ``JSONParser/parse(_:leavingElementsOf:flagging:)`` (checked well-formed, not built), or
/// values already parsed.
///
/// A `records/modify` body's operations are held so: each chunk of them is built, read into
/// operations and dropped beside the writer, instead of one tree of the whole batch built before
/// the first write and destroyed after the answer.
package struct JSONElements: Sendable {
    /// Where an element starts in the document, and whether one of its strings is a flagging word.
    package struct Element: Sendable, Equatable {
        package var start: Int
        package var flagged: Bool
    }

    private enum Storage: Sendable {
        /// The whole document's bytes and the elements' places in it.
        case text([UInt8], [Element])
        case values([JSONValue])
    }

    private let storage: Storage

    /// Elements already parsed; each counts as flagged.
    package init(_ values: [JSONValue]) {
        storage = .values(values)
    }

    /// The elements of `document` at `elements`, as ``JSONParser/parse(_:leavingElementsOf:flagging:)``
    /// found them: in an array that is a member of the top-level object.
    package init(document: [UInt8], elements: [Element]) {
        storage = .text(document, elements)
    }

    /// How deep such elements are nested: the parser's nesting limit counts from there.
    private static let depth = 2

    package var count: Int {
        switch storage {
        case .text(_, let elements): elements.count
        case .values(let values): values.count
        }
    }

    /// Element `index`, built. An element left as text was checked when its document was
    /// parsed, so it reads as that parse would have read it.
    package func element(_ index: Int) throws(CloudKitError) -> JSONValue {
        switch storage {
        case .values(let values):
            return values[index]
        case .text(let document, let elements):
            let result: Result<JSONValue, CloudKitError> = document.withUnsafeBufferPointer { buffer in
                Result { () throws(CloudKitError) in try JSONParser.parse(buffer, at: elements[index].start, depth: Self.depth) }
            }
            return try result.get()
        }
    }

    /// Whether element `index` may hold one of the flagging words: false only for an element
    /// left as text none of whose strings is one.
    package func mayHoldFlaggedWord(_ index: Int) -> Bool {
        switch storage {
        case .text(_, let elements): elements[index].flagged
        case .values: true
        }
    }
}
