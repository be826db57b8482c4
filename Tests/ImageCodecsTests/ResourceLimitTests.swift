import Foundation
import ImageCodecs
import Testing

@Suite("File-size limit and decode memory budget")
struct ResourceLimitTests {
    private func temporaryFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("scanreader-limits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("A 3 GB sparse file is refused by its size before anything is read")
    func sparseGiant() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("huge.jpg").path
        FileManager.default.createFile(atPath: path, contents: Data([0xFF, 0xD8, 0xFF, 0xE0]))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 3 << 30)
        try handle.close()
        #expect {
            _ = try ImageLoader.load(path: path)
        } throws: { error in
            guard let error = error as? ImageLoadError else { return false }
            return error.code == .fileTooLarge && error.message.hasPrefix(path)
                && error.message.contains("3221225472")
        }
    }

    @Test("The byte limit is exact: a file of the limit's size loads, one byte more is refused")
    func byteLimitEdge() throws {
        let path = Fixtures.path("png-rgb8.png")
        let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(throws: Never.self) { _ = try ImageLoader.load(path: path, options: .init(maxBytes: size)) }
        #expect {
            _ = try ImageLoader.load(path: path, options: .init(maxBytes: size - 1))
        } throws: { ($0 as? ImageLoadError)?.code == .fileTooLarge }
    }

    @Test("A decode that could never fit the budget is refused, and the budget is left empty",
          arguments: ["jpeg-ycbcr-progressive.jpg", "jpeg-ycbcr-420.jpg", "png-rgba8-interlaced.png"])
    func budgetRefuses(_ name: String) throws {
        let budget = MemoryBudget(capacity: 1000)
        #expect {
            _ = try ImageLoader.load(path: Fixtures.path(name), options: .init(memoryBudget: budget))
        } throws: { error in
            guard let error = error as? ImageLoadError else { return false }
            return error.code == .tooLarge && error.message.contains("memory budget")
        }
        #expect(budget.inUse == 0 && budget.peak == 0)
    }

    @Test("A progressive JPEG reserves its whole coefficient buffer; a baseline one a few rows")
    func progressiveCostsMore() throws {
        func peak(_ name: String) throws -> Int {
            let budget = MemoryBudget(capacity: 1 << 30)
            let loaded = try ImageLoader.load(path: Fixtures.path(name), options: .init(memoryBudget: budget))
            #expect(budget.inUse == 0)   // given back when the decode ends
            #expect(budget.peak >= 2 * loaded.image.width * loaded.image.height)
            return budget.peak
        }
        let baseline = try peak("jpeg-ycbcr-420.jpg"), progressive = try peak("jpeg-ycbcr-progressive.jpg")
        // 40×24 pixels, 4:2:0: 15 luma + 2 × 6 chroma blocks at least, 128 bytes each
        #expect(progressive - baseline >= 27 * 128)
    }

    @Test("A reservation that does not fit waits until enough is given back")
    func budgetWaits() async throws {
        let budget = MemoryBudget(capacity: 100)
        #expect(budget.reserve(60))
        #expect(!budget.reserve(101))   // more than the whole budget: refused at once
        let second = Task.detached { budget.reserve(60) }
        try await Task.sleep(for: .milliseconds(50))
        #expect(budget.inUse == 60)     // the second is still waiting
        budget.release(60)
        #expect(await second.value)
        #expect(budget.inUse == 60 && budget.peak == 60)
        budget.release(60)
        #expect(budget.inUse == 0)
    }

    @Test("Interlaced PNGs, decoded pass by pass, equal their plain twins",
          arguments: [("png-rgb8", "png-rgb8-interlaced"), ("png-rgba8", "png-rgba8-interlaced"),
                      ("png-gray4", "png-gray4-interlaced")])
    func interlacedEqualsPlain(_ plain: String, _ interlaced: String) throws {
        let a = try ImageLoader.load(path: Fixtures.path("\(plain).png")).image
        let b = try ImageLoader.load(path: Fixtures.path("\(interlaced).png")).image
        #expect(a == b)
    }
}
