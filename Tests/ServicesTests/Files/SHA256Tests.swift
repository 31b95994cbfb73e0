import PromiseMVPTesting
import Testing

@testable import Services

/// `SHA256` against the standard's examples (FIPS 180-4, NIST's example values), fed whole and in
/// pieces of every size that crosses a block's edge.
@Suite("SHA-256")
struct SHA256Tests {
    static let examples: [(String, String)] = [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ]

    @Test("a digest's hex reads back as its bytes, two digits a byte, up to a pair that is not hex")
    func hexToBytes() {
        #expect(SHA256.bytes(ofHex: "00ff10a9") == [0x00, 0xFF, 0x10, 0xA9])
        #expect(SHA256.bytes(ofHex: "0aZZ0b") == [0x0A])
        #expect(SHA256.bytes(ofHex: "abc") == [0xAB])
    }

    @Test("the standard's examples give the standard's digests")
    func standardExamples() {
        for (message, digest) in Self.examples {
            #expect(SHA256.hex(of: Array(message.utf8)) == digest, "\(message)")
        }
    }

    @Test("the standard's long example (a million a's), fed in pieces, gives the standard's digest")
    func millionInPieces() async {
        // Given: a million a's, hashed on a thread of its own: a second of work under a sanitizer
        // would hold one of the test pool's two threads meanwhile
        let digest = await BlockingWork.run {
            let message = [UInt8](repeating: 0x61, count: 1_000_000)
            // When
            var hash = SHA256()
            var start = 0
            while start < message.count {
                hash.update(Array(message[start..<min(start + 65_537, message.count)]))
                start += 65_537
            }
            return hash.finalizedHex()
        }
        // Then
        #expect(digest == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test(
        "a message fed in pieces of any size gives the digest of the whole",
        arguments: [1, 3, 55, 56, 63, 64, 65, 127])
    func piecesOfAnySize(size: Int) {
        // Given: 5,000 bytes, and their digest taken whole
        let message = (0..<5_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let whole = SHA256.hex(of: message)
        // When
        var hash = SHA256()
        var start = 0
        while start < message.count {
            hash.update(Array(message[start..<min(start + size, message.count)]))
            start += size
        }
        // Then
        #expect(hash.finalizedHex() == whole)
    }

    @Test("lengths around the padding's edge are padded as the standard says, whole or byte by byte")
    func paddingEdges() {
        // Given: that many "x"s, digests from `sha256sum`
        let expected = [
            55: "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072",
            56: "04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e",
            63: "75220b47218278e656f2013bb8f0c455a25eaf01e86c64924e9d48d89776d6f2",
            64: "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c",
            65: "9537c5fdf120482f7d58d25e9ed583f52c02b4e304ea814db1633ad565aed7e9",
            119: "000b48d4edf0fa7bee3c6236ecd2785baa5db4eeb8bb54341b029e0d9fa5fb0c",
            120: "13f05a0b594787f5ecd315edc96141bd3243203d1b7d4f0836f37308b276ba98",
        ]
        for (count, digest) in expected {
            let bytes = [UInt8](repeating: 0x78, count: count)
            // When
            var pieces = SHA256()
            for byte in bytes { pieces.update([byte]) }
            // Then
            #expect(SHA256.hex(of: bytes) == digest, "\(count) bytes whole")
            #expect(pieces.finalizedHex() == digest, "\(count) bytes one by one")
        }
    }
}
