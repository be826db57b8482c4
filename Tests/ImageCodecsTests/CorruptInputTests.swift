import CTestSupport
import Foundation
import ImageCodecs
import Testing

@Suite("Corrupt and unreadable input gets its exact error and the process survives")
struct CorruptInputTests {
    static let corpus: [(String, ImageLoadError.Code)] = [
        ("empty.jpg", .emptyFile),
        ("jpeg-soi-only.jpg", .corrupt),
        ("jpeg-cut-in-header.jpg", .corrupt),
        ("jpeg-cut-before-scan.jpg", .corrupt),
        ("jpeg-cut-early-in-scan.jpg", .corrupt),
        ("jpeg-cut-late-in-scan.jpg", .corrupt),
        ("jpeg-60000x60000.jpg", .tooLarge),
        ("png-bad-crc.png", .corrupt),
        ("png-truncated.png", .corrupt),
        ("png-60000x60000.png", .tooLarge),
        ("wrong-magic.jpg", .unsupportedFormat),
        ("random.bin", .unsupportedFormat),
    ]

    @Test("Corrupt corpus, with and without the colour", arguments: corpus)
    func corrupt(_ name: String, _ code: ImageLoadError.Code) {
        let path = Fixtures.path("corrupt/\(name)")
        for chromaBlock in [nil, 4] {
            #expect {
                _ = try ImageLoader.load(path: path, options: .init(chromaBlock: chromaBlock))
            } throws: { error in
                guard let error = error as? ImageLoadError else { return false }
                return error.code == code && error.path == path && error.message.hasPrefix(path)
            }
        }
    }

    @Test("Pixel limit is configurable")
    func pixelLimit() {
        let options = ImageLoadOptions(maxPixels: 100)
        #expect(throws: ImageLoadError.self) {
            _ = try ImageLoader.load(path: Fixtures.path("png-rgb8.png"), options: options)
        }
        #expect(throws: Never.self) {
            _ = try ImageLoader.load(path: Fixtures.path("png-rgb8.png"),
                                     options: ImageLoadOptions(maxPixels: 40 * 24))
        }
    }

    @Test("A missing file")
    func missing() {
        #expect(code(of: "/nonexistent/scan.jpg") == .fileNotFound)
    }

    @Test("A directory")
    func directory() {
        #expect(code(of: Fixtures.path("corrupt")) == .unreadable)
    }

    @Test("A file without read permission, even when the tests run as root")
    func noPermission() throws {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("scanreader-perm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("locked.jpg")
        try FileManager.default.copyItem(atPath: Fixtures.path("jpeg-gray-baseline.jpg"),
                                         toPath: file.path)
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: file.path)
        // root bypasses permissions through CAP_DAC_OVERRIDE: drop it on this thread only
        let dropped = sr_test_set_dac_override_dropped(1) == 0
        let result = code(of: file.path)
        if dropped { _ = sr_test_set_dac_override_dropped(0) }
        #expect(result == .unreadable)
    }

    private func code(of path: String) -> ImageLoadError.Code? {
        do {
            _ = try ImageLoader.load(path: path)
            return nil
        } catch {
            return error.code
        }
    }
}
