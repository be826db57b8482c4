import Foundation
import ImageCodecs
import Testing

/// A short mutation-fuzzing run over the decoders (the long one, through the command
/// line, is `Benchmarks/fuzz.sh`). Every mutated file must decode or throw a typed error
/// naming it: a crash or a hang fails the test run itself.
@Suite("Mutation fuzzing of the decoders (short run)")
struct MutationFuzzTests {
    /// A deterministic generator (xorshift64*), so a failure can be replayed by its seed.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12; state ^= state << 25; state ^= state >> 27
            return state &* 2685821657736338717
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }
    }

    /// One to four edits of the kinds that reach deep into a decoder: bit flips, bytes
    /// set to boundary values, a header's size fields made huge, cuts, repeats, inserts.
    static func mutate(_ seed: [UInt8], _ g: inout Generator) -> [UInt8] {
        var bytes = seed
        for _ in 0...g.below(4) where !bytes.isEmpty {
            let at = g.below(bytes.count)
            switch g.below(7) {
            case 0: bytes[at] ^= UInt8(1 << g.below(8))
            case 1: bytes[at] = [0x00, 0xFF, 0x7F, 0x80, 0x01][g.below(5)]
            case 2: for k in at..<min(bytes.count, at + 4) { bytes[k] = 0xFF }   // sizes, lengths
            case 3: bytes.removeSubrange(at..<min(bytes.count, at + 1 + g.below(64)))
            case 4: bytes = Array(bytes[..<at])                                    // truncated
            case 5: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 1 + g.below(32))], at: g.below(bytes.count))
            default: bytes.insert(contentsOf: (0..<1 + g.below(16)).map { _ in UInt8(truncatingIfNeeded: g.next()) }, at: at)
            }
        }
        return bytes
    }

    @Test("10 000 mutations of the fixtures: each decodes or gives a typed error naming it")
    func shortRun() throws {
        let folder = URL(fileURLWithPath: Fixtures.path("png-rgb8.png")).deletingLastPathComponent()
        let seeds = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".png") }.sorted()
            .map { try [UInt8](Data(contentsOf: folder.appendingPathComponent($0))) }
        #expect(seeds.count >= 20)
        var g = Generator(state: 0x5CA7_7EAD)
        var outcomes: [String: Int] = [:]
        let options = ImageLoadOptions(maxPixels: 4_000_000, memoryBudget: MemoryBudget(capacity: 64 << 20))
        for trial in 0..<10_000 {
            let bytes = Self.mutate(seeds[trial % seeds.count], &g)
            let name = "mutant-\(trial)"
            do {
                // every other trial decodes the colour too (raw JPEG data, PNG colour sums)
                var trialOptions = options
                trialOptions.chromaBlock = trial % 2 == 1 ? 4 : nil
                let loaded = try ImageLoader.decode(bytes, name: name, options: trialOptions)
                #expect(loaded.image.pixels.count == loaded.image.width * loaded.image.height)
                outcomes["decoded", default: 0] += 1
            } catch {
                #expect(error.message.hasPrefix(name + ": "))
                outcomes[error.code.rawValue, default: 0] += 1
            }
        }
        // the mutations must exercise both sides: some files still decode, most do not
        #expect(outcomes["decoded", default: 0] > 300)
        #expect(outcomes["corrupt_image", default: 0] > 3000)
        #expect(options.memoryBudget?.inUse == 0)
    }
}
