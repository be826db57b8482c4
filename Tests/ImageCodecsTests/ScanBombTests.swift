import ImageCodecs
import Testing

/// A progressive JPEG whose every AC coefficient is zero, written scan by scan: each
/// coefficient gets a first scan at `firstAl` and refinements down to 0, so the number of
/// valid scans is 1 + 63 × (firstAl + 1). Every scan is only an end-of-band run, a few
/// bytes, yet the decoder passes over every block for each.
enum ProgressiveJPEG {
    struct Bits {
        var bytes: [UInt8] = []
        var current: UInt32 = 0, count = 0
        mutating func put(_ value: Int, _ length: Int) {
            for k in stride(from: length - 1, through: 0, by: -1) {
                current = (current << 1) | UInt32((value >> k) & 1)
                count += 1
                if count == 8 { emit(UInt8(current)); current = 0; count = 0 }
            }
        }
        mutating func emit(_ byte: UInt8) { bytes.append(byte); if byte == 0xFF { bytes.append(0) } }
        mutating func finish() -> [UInt8] {
            while count != 0 { put(1, 1) }   // pad with ones
            return bytes
        }
    }

    static func segment(_ marker: UInt8, _ body: [UInt8]) -> [UInt8] {
        [0xFF, marker, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
    }

    static func make(width: Int, height: Int, firstAl: Int) -> [UInt8] {
        let blocks = ((width + 7) / 8) * ((height + 7) / 8)
        var out: [UInt8] = [0xFF, 0xD8]
        out += segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
        out += segment(0xC2, [8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 1, 1, 0x11, 0])
        // DC: one symbol (category 0), code "0"; AC: the 15 end-of-band runs EOB0…EOB14, 4-bit codes
        out += segment(0xC4, [0x00, 1] + [UInt8](repeating: 0, count: 15) + [0])
        out += segment(0xC4, [0x10, 0, 0, 0, 15] + [UInt8](repeating: 0, count: 12) + (0...14).map { UInt8($0 << 4) })
        func scan(_ ss: Int, _ se: Int, _ ah: Int, _ al: Int, _ data: [UInt8]) {
            out += segment(0xDA, [1, 1, 0x00, UInt8(ss), UInt8(se), UInt8(ah << 4 | al)]) + data
        }
        var dc = Bits()
        for _ in 0..<blocks { dc.put(0, 1) }
        scan(0, 0, 0, 0, dc.finish())
        func endOfBand() -> [UInt8] {   // runs of at most 32 767 blocks
            var bits = Bits(), left = blocks
            while left > 0 {
                let run = min(left, 32767)
                let r = Int.bitWidth - 1 - run.leadingZeroBitCount
                bits.put(r, 4)                     // the symbol r<<4 has code r (codes in order)
                if r > 0 { bits.put(run - (1 << r), r) }
                left -= run
            }
            return bits.finish()
        }
        let band = endOfBand()
        for k in 1...63 { scan(k, k, 0, firstAl, band) }
        for al in stride(from: firstAl - 1, through: 0, by: -1) {
            for k in 1...63 { scan(k, k, al + 1, al, band) }
        }
        return out + [0xFF, 0xD9]
    }
}

@Suite("A progressive JPEG with thousands of tiny scans is refused, not decoded for minutes")
struct ScanBombTests {
    @Test("Valid files with 64 and 820 scans: the first decodes (all grey), the second is refused")
    func scanLimit() throws {
        let few = ProgressiveJPEG.make(width: 64, height: 48, firstAl: 0)        // 1 + 63 = 64 scans
        let loaded = try ImageLoader.decode(few, name: "few-scans.jpg")
        #expect(loaded.image.width == 64 && Set(loaded.image.pixels).count == 1)
        let many = ProgressiveJPEG.make(width: 64, height: 48, firstAl: 12)      // 1 + 63 × 13 = 820 scans
        #expect {
            _ = try ImageLoader.decode(many, name: "many-scans.jpg")
        } throws: { error in
            guard let error = error as? ImageLoadError else { return false }
            return error.code == .corrupt && error.message.contains("more than 100 scans")
        }
    }
}
