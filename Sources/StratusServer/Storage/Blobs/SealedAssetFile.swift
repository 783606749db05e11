import Crypto
import Foundation
import NIOCore
import StratusCore

/// An asset file sealed under its owner's data key (`stratus serve --encrypt-assets`): AES-GCM in
/// fixed-size segments, so that a file is sealed as it arrives and any byte range of it is read by
/// opening only the segments that hold it.
///
/// The layout: a header of ``headerSize`` bytes — `SAF1`, the segment size (4 bytes, big-endian)
/// and a random file identifier (16 bytes) — then the segments, each a nonce (12 bytes), the
/// ciphertext and its tag (16 bytes). Every segment but the last holds ``segmentSize`` bytes of
/// the file; the last holds 0 to ``segmentSize`` and says so in its associated data, which also
/// binds the header and the segment's number: a file cut short, segments reordered or taken from
/// another file do not open.
///
/// A sealed file's name in the ``BlobStore`` is its plain checksum, a dot and a tag of the data key
/// (``name(checksum:sealer:)``): the same file uploaded twice under one key is stored once, and
/// never shared between keys. A plain file's name is its checksum.
package enum SealedAssetFile {
    static let magic = Array("SAF1".utf8)
    static let headerSize = 24
    /// Bytes of the file in each segment but the last.
    static let segmentSize = 64 * 1024
    /// What sealing adds to a segment: its nonce and its tag.
    static let segmentOverhead = 12 + 16

    // MARK: Names

    /// The blob-store name of a file with this checksum sealed with `sealer`'s key.
    static func name(checksum: String, sealer: Sealer) -> String {
        checksum + "." + sealer.assetFileTag
    }

    /// The plain checksum a blob-store name stands for (the asset's `fileChecksum` on the wire).
    static func checksum(ofBlob name: String) -> String {
        guard let dot = name.firstIndex(of: ".") else { return name }
        return String(name[..<dot])
    }

    /// The key tag of a sealed file's name, nil for a plain file's.
    static func keyTag(ofBlob name: String) -> Substring? {
        name.firstIndex(of: ".").map { name[name.index(after: $0)...] }
    }

    // MARK: Sizes

    /// How many bytes a sealed file of `storedSize` bytes holds when opened; nil for a size no
    /// sealed file has.
    static func plaintextSize(ofStored storedSize: Int64) -> Int64? {
        layout(ofStored: storedSize)?.size
    }

    /// The bytes a sealed file of `storedSize` bytes holds when opened, and its segments (the
    /// last of which may be empty); nil for a size no sealed file has.
    static func layout(ofStored storedSize: Int64) -> (size: Int64, segments: Int64)? {
        let sealedSegment = Int64(segmentSize + segmentOverhead)
        let body = storedSize - Int64(headerSize)
        guard body >= Int64(segmentOverhead) else { return nil }
        let segments = (body + sealedSegment - 1) / sealedSegment
        let plaintext = body - segments * Int64(segmentOverhead)
        guard plaintext >= (segments - 1) * Int64(segmentSize) else { return nil }
        return (plaintext, segments)
    }

    /// Where segment `index` starts in the sealed file.
    static func offset(ofSegment index: Int64) -> Int64 {
        Int64(headerSize) + index * Int64(segmentSize + segmentOverhead)
    }

    /// What each segment's associated data binds: the header, the segment's number, and whether
    /// it is the last.
    static func associatedData(header: ByteBuffer, index: Int64, last: Bool) -> [UInt8] {
        var data = Array(header.readableBytesView)
        withUnsafeBytes(of: UInt64(index).bigEndian) { data.append(contentsOf: $0) }
        data.append(last ? 1 : 0)
        return data
    }

    // MARK: Sealing

    /// Seals one file as it arrives: ``header`` first, then ``seal(_:from:last:)`` of its bytes in
    /// order.
    struct Writer: Sendable {
        let key: SymmetricKey
        let header: ByteBuffer

        init(sealer: Sealer) {
            key = sealer.key
            var header = ByteBuffer()
            header.writeBytes(SealedAssetFile.magic)
            header.writeInteger(UInt32(SealedAssetFile.segmentSize))
            header.writeBytes(SecretGenerator.randomBytes(16))
            self.header = header
        }

        /// `bytes` of the file sealed as segments numbered from `index` (a multiple of
        /// ``segmentSize`` bytes unless `last`; the last segment may be empty).
        func seal(_ bytes: ByteBuffer, from index: Int64, last: Bool) throws -> ByteBuffer {
            let count = bytes.readableBytes
            precondition(last || count % SealedAssetFile.segmentSize == 0, "only the last segment may be short")
            let segments = last ? max(1, (count + SealedAssetFile.segmentSize - 1) / SealedAssetFile.segmentSize) : count / SealedAssetFile.segmentSize
            var sealed = ByteBuffer()
            sealed.reserveCapacity(count + segments * SealedAssetFile.segmentOverhead)
            var plaintext = bytes
            for number in 0..<segments {
                let piece = plaintext.readSlice(length: min(SealedAssetFile.segmentSize, plaintext.readableBytes))!
                let isLast = last && number == segments - 1
                let context = SealedAssetFile.associatedData(header: header, index: index + Int64(number), last: isLast)
                let box = try piece.withUnsafeReadableBytes { try AES.GCM.seal($0, using: key, authenticating: context) }
                box.nonce.withUnsafeBytes { _ = sealed.writeBytes($0) }
                sealed.writeBytes(box.ciphertext)
                sealed.writeBytes(box.tag)
            }
            return sealed
        }
    }

    // MARK: Opening

    /// Reads `range` of the file a sealed blob holds (all of it without one) and hands its bytes
    /// to `consume` in pieces, in order, opening a segment at a time: memory stays at a segment
    /// whatever the file's size and the range's. `opener` holds the key the file's name names
    /// (a segment it does not open is damage); false when the store has no such file.
    static func read(_ name: String, storedSize: Int64, range: ClosedRange<Int64>?, from store: any BlobStore, opener: Sealer,
                     _ consume: (ByteBuffer) async throws -> Void) async throws -> Bool {
        guard let (size, segments) = layout(ofStored: storedSize) else { throw damaged(name) }
        var header = ByteBuffer()
        guard try await store.read(checksum: name, bytes: 0...Int64(headerSize - 1), { header.writeImmutableBuffer($0) }) else { return false }
        guard header.readableBytes == headerSize, Array(header.readableBytesView.prefix(4)) == magic,
              header.getInteger(at: header.readerIndex + 4, as: UInt32.self) == UInt32(segmentSize) else { throw damaged(name) }
        guard size > 0 else { return true }
        let wanted = range ?? 0...(size - 1)
        let segment = Int64(segmentSize)
        // The size tells which segment is the last (a file's bytes can end in the one before it,
        // when the last is empty): one cut off or added to makes another segment the last, whose
        // associated data then disagrees.
        let lastSegment = segments - 1
        var index = wanted.lowerBound / segment
        let end = min(wanted.upperBound / segment, lastSegment)
        let sealedSegment = segmentSize + segmentOverhead
        var pending = ByteBuffer()
        func open(_ sealed: ByteBuffer) async throws {
            var sealed = sealed
            guard sealed.readableBytes >= segmentOverhead,
                  let nonce = sealed.readBytes(length: 12), let ciphertext = sealed.readBytes(length: sealed.readableBytes - 16),
                  let tag = sealed.readBytes(length: 16),
                  let box = try? AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: nonce), ciphertext: ciphertext, tag: tag),
                  let plaintext = try? AES.GCM.open(box, using: opener.key,
                                                    authenticating: associatedData(header: header, index: index, last: index == lastSegment)) else {
                throw damaged(name)
            }
            // The part of the segment inside the range.
            let start = index * segment
            let from = Int(max(wanted.lowerBound - start, 0))
            let through = Int(min(wanted.upperBound - start, Int64(plaintext.count) - 1))
            index += 1
            guard from <= through else { return }
            var piece = ByteBuffer()
            piece.writeBytes(plaintext[plaintext.startIndex + from...plaintext.startIndex + through])
            try await consume(piece)
        }
        let found = try await store.read(checksum: name, bytes: offset(ofSegment: index)...(min(offset(ofSegment: end + 1), storedSize) - 1)) { bytes in
            var bytes = bytes
            while bytes.readableBytes > 0 {
                let take = min(sealedSegment - pending.readableBytes, bytes.readableBytes)
                var slice = bytes.readSlice(length: take)!
                pending.writeBuffer(&slice)
                if pending.readableBytes == sealedSegment {
                    try await open(pending)
                    pending.clear()
                }
            }
        }
        if pending.readableBytes > 0 { try await open(pending) }
        guard found, index == end + 1 else { throw damaged(name) }
        return true
    }

    private static func damaged(_ name: String) -> CloudKitError {
        CloudKitError(.internalError, "the stored asset file \(name) is damaged")
    }
}
