#if canImport(Glibc)
import Glibc
#endif

/// Where a timetable keeps the scan forms of the patterns it reads (`ScannedPattern`): blocks
/// handed out one after another from chunks of 2 MiB, each starting on a 2 MiB boundary and
/// marked for huge pages (`MADV_HUGEPAGE`, used where the system's transparent huge pages are
/// enabled for it: Debian's default), and all given back together when the arena goes, with the
/// last pattern that uses it. A timetable keeps every pattern it reads, so no block is freed alone.
///
/// Why: a search decodes each pattern's times into fresh memory, and each fresh 4 KiB page costs
/// a fault: a `plan` across the national feed decodes hundreds of MB, and took 108,137 faults and
/// 0.40 s in the kernel (of 1.18 s) with a block of its own per pattern; 42,641 and 0.24 s (of
/// 1.02 s) in the arena. A huge page is one fault for 512 pages. Where the system gives none, the
/// chunks are plain pages, as the blocks were.
final class PatternArena {
    /// A chunk: one huge page on x86-64 (and on ARM64 with 4 KiB pages).
    static let chunkBytes = 2 << 20

    /// The regions mapped, to unmap; blocks that could not be mapped come from the heap.
    private var mapped: [(start: UnsafeMutableRawPointer, bytes: Int)] = []
    private var allocated: [UnsafeMutableRawPointer] = []
    /// Where the next block of the current chunk starts, and how many bytes the chunk has left.
    private var next: UnsafeMutableRawPointer?
    private var left = 0

    init() {}

    deinit {
        for region in mapped { munmap(region.start, region.bytes) }
        for block in allocated { block.deallocate() }
    }

    /// `byteCount` bytes, 8-aligned, valid while the arena lives. A block larger than a quarter
    /// of a chunk gets a region of its own, so the current chunk's remainder is not left unused.
    func allocate(byteCount: Int) -> UnsafeMutableRawPointer {
        let bytes = max((byteCount + 7) & ~7, 8)
        if bytes > PatternArena.chunkBytes / 4 { return region(bytes) }
        if bytes > left {
            next = region(PatternArena.chunkBytes)
            left = PatternArena.chunkBytes
        }
        let block = next!
        next = block + bytes
        left -= bytes
        return block
    }

    /// A region of at least `bytes`, starting on a chunk boundary: one chunk more is mapped and
    /// what lies outside the region given back.
    private func region(_ bytes: Int) -> UnsafeMutableRawPointer {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let size = (bytes + page - 1) / page * page
        let reserved = size + PatternArena.chunkBytes
        guard let raw = mmap(nil, reserved, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), raw != MAP_FAILED else {
            let block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
            allocated.append(block)
            return block
        }
        let start = UInt(bitPattern: raw)
        let aligned = (start + UInt(PatternArena.chunkBytes) - 1) & ~UInt(PatternArena.chunkBytes - 1)
        if aligned > start { munmap(raw, Int(aligned - start)) }
        let end = start + UInt(reserved), used = aligned + UInt(size)
        if end > used { munmap(UnsafeMutableRawPointer(bitPattern: used), Int(end - used)) }
        let block = UnsafeMutableRawPointer(bitPattern: aligned)!
        #if os(Linux)
        _ = madvise(block, size, MADV_HUGEPAGE)
        #endif
        mapped.append((block, size))
        return block
    }
}
