#if canImport(Glibc)
import Glibc
#endif

/// 64-bit FNV-1a, for entity tags (not for security).
struct FNVHash {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ text: String) {
        for byte in text.utf8 { add(byte: byte) }
        add(byte: 0xFF)
    }

    /// Adds the eight bytes of `number`, low byte first.
    mutating func add(_ number: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { add(byte: UInt8(truncatingIfNeeded: number >> UInt64(shift))) }
    }

    /// Adds what tells one state of a file from another: its inode, size and modification time.
    mutating func add(_ status: stat) {
        add(UInt64(status.st_ino))
        add(UInt64(bitPattern: Int64(status.st_size)))
        add(UInt64(bitPattern: Int64(status.st_mtim.tv_sec)))
        add(UInt64(bitPattern: Int64(status.st_mtim.tv_nsec)))
    }

    private mutating func add(byte: UInt8) {
        value ^= UInt64(byte)
        value &*= 0x0000_0100_0000_01B3
    }

    /// The hash as 16 lowercase hex digits.
    var hex: String {
        String(unsafeUninitializedCapacity: 16) { digits in
            writeHex(into: digits)
            return 16
        }
    }

    /// The hash as an entity tag: its 16 hex digits in double quotes, written in one string.
    var quotedHex: String {
        String(unsafeUninitializedCapacity: 18) { text in
            text[0] = UInt8(ascii: "\"")
            writeHex(into: UnsafeMutableBufferPointer(rebasing: text[1..<17]))
            text[17] = UInt8(ascii: "\"")
            return 18
        }
    }

    private func writeHex(into digits: UnsafeMutableBufferPointer<UInt8>) {
        for index in 0..<16 {
            let nibble = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * index)) & 0xF
            digits[index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
        }
    }
}
