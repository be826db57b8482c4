import Foundation
import ScanReader
import Testing

/// Hostile and careless inputs through the built `scanreader`: every entry accounted
/// for, limits before reading, outputs that never overwrite inputs, signals.
@Suite("Reliability: limits, accounting, safe outputs, signals")
struct ReliabilityTests {
    private func records(_ stdout: String) throws -> [ScanResult] {
        try stdout.split(separator: "\n").map { try JSONDecoder().decode(ScanResult.self, from: Data($0.utf8)) }
    }

    private func copySample(_ name: String, to url: URL) throws {
        try FileManager.default.copyItem(atPath: CLI.root.appendingPathComponent("SampleImages/\(name)").path, toPath: url.path)
    }

    /// Makes a file whose name holds `bytes` (not UTF-8) in `dir`, through the C call.
    private func makeFile(named bytes: [UInt8], in dir: URL) -> Bool {
        let path = Array(dir.path.utf8) + [UInt8(ascii: "/")] + bytes + [0]
        let fd = path.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) } }
        guard fd >= 0 else { return false }
        _ = [UInt8(0xFF), 0xD8, 0xFF].withUnsafeBytes { write(fd, $0.baseAddress, 3) }
        close(fd)
        return true
    }

    @Test("A 3 GB sparse .jpg beside a good file: the good one read, the big one file_too_large, exit 2")
    func sparseGiant() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let big = dir.appendingPathComponent("huge.jpg")
        FileManager.default.createFile(atPath: big.path, contents: Data([0xFF, 0xD8, 0xFF, 0xE0]))
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: 3 << 30)
        try handle.close()
        let run = try CLI.run(["SampleImages/sticky-note.jpg", big.path, "--format", "jsonl", "--quiet"])
        #expect(run.status == 2)
        let results = try records(run.stdout)
        #expect(results.map { $0.error?.code ?? $0.status } == ["ok", "file_too_large"])
        #expect(results.first?.regions.first?.text == "4071")
    }

    @Test("Pipe, socket, device, empty, not-UTF-8 name, link to a folder, folder with no image: one record each, in order, in a folder and in a list")
    func everyEntryAccounted() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try copySample("sticky-note.jpg", to: dir.appendingPathComponent("a-note.jpg"))
        FileManager.default.createFile(atPath: dir.appendingPathComponent("b-empty.jpg").path, contents: Data())
        #expect(mkfifo(dir.appendingPathComponent("c-pipe.jpg").path, 0o644) == 0)
        let socketPath = dir.appendingPathComponent("d-socket.jpg").path
        let sock = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (k, byte) in socketPath.utf8.enumerated() where k < raw.count - 1 { raw[k] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(sock, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        defer { close(sock) }
        #expect(bound == 0)
        #expect(makeFile(named: Array("e-caf".utf8) + [0xE9] + Array(".jpg".utf8), in: dir))
        let sub = dir.appendingPathComponent("f-sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try copySample("two-lines.jpg", to: sub.appendingPathComponent("g.jpg"))
        try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent("h-link"), withDestinationURL: sub)
        let emptyOutside = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: emptyOutside) }

        let expected = ["ok", "empty_file", "not_a_regular_file", "not_a_regular_file", "bad_file_name", "ok", "not_a_regular_file"]
        let scan = try #require(try CLI.run([dir.path, "/dev/null", emptyOutside.path, "--format", "jsonl", "--quiet"], timeout: 60),
                                "the folder scan hung")
        #expect(scan.status == 2)
        let scanned = try records(scan.stdout)
        #expect(scanned.map { $0.error?.code ?? $0.status } == expected + ["not_a_regular_file", "no_images"], "\(scan.stdout)")
        #expect(scanned[4].file.hasSuffix("e-caf\\xE9.jpg"))

        // the same entries named one per line in a list (the bad name as its bytes)
        var list = Data()
        for name in ["a-note.jpg", "b-empty.jpg", "c-pipe.jpg", "d-socket.jpg"] { list += Data((dir.path + "/" + name + "\n").utf8) }
        list += Data((dir.path + "/e-caf").utf8) + Data([0xE9]) + Data(".jpg\n".utf8)
        list += Data((sub.path + "/g.jpg\n" + sub.path + "\n").utf8)
        let listFile = emptyOutside.appendingPathComponent("list.txt")
        try list.write(to: listFile)
        let listed = try #require(try CLI.run(["--files-from", listFile.path, "--format", "jsonl", "--quiet"], timeout: 60),
                                  "the list hung")
        #expect(listed.status == 2)
        #expect(try records(listed.stdout).map { $0.error?.code ?? $0.status }
                == ["ok", "empty_file", "not_a_regular_file", "not_a_regular_file", "bad_file_name", "ok", "unreadable"],
                "\(listed.stdout)")
    }

    @Test("A command-line argument that is not UTF-8 is named by its bytes, escaped")
    func badArgument() throws {
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "\"$0\" --format jsonl --quiet \"$(printf 'photo-\\377.jpg')\"", CLI.binary.path]
        let out = Pipe()
        shell.standardOutput = out
        shell.standardError = FileHandle.nullDevice
        try shell.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 2)
        let result = try JSONDecoder().decode(ScanResult.self, from: data)
        #expect(result.file == "photo-\\xFF.jpg" && result.error?.code == "bad_file_name")
    }

    @Test("--out onto an input (by any name) and --debug-dir inside an input folder are refused; the input is untouched")
    func outputsOntoInputs() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("note.jpg"), link = dir.appendingPathComponent("alias.jpg")
        try copySample("sticky-note.jpg", to: input)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: input)
        let before = try Data(contentsOf: input)
        for out in [input.path, link.path] {
            let run = try CLI.run([input.path, "--out", out])
            #expect(run.status == 1 && run.stderr.contains("refusing to overwrite"), "\(run.stderr)")
        }
        let inside = try CLI.run([dir.path, "--debug-dir", dir.appendingPathComponent("debug").path])
        #expect(inside.status == 1 && inside.stderr.contains("inside the input folder"), "\(inside.stderr)")
        let holding = try CLI.run([input.path, "--debug-dir", dir.path])
        #expect(holding.status == 1 && holding.stderr.contains("holds the input"), "\(holding.stderr)")
        #expect(try Data(contentsOf: input) == before)
    }

    /// Writes "previous" to `out`, starts a slow run (`count` copies of a sample, one job)
    /// writing `out`, and waits until its unfinished file holds `records` records.
    private func startRun(in dir: URL, out: URL, count: Int, records: Int) throws -> (Process, Pipe, URL) {
        try Data("previous\n".utf8).write(to: out)
        let photos = dir.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let first = photos.appendingPathComponent("0000.jpg")
        try copySample("shadow.jpg", to: first)
        for k in 1..<count { try FileManager.default.linkItem(at: first, to: photos.appendingPathComponent(String(format: "%04d.jpg", k))) }
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = [photos.path, "--out", out.path, "--jobs", "1", "--quiet"]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let partial = dir.appendingPathComponent(".\(out.lastPathComponent).partial-\(process.processIdentifier)")
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let text = try? String(contentsOf: partial, encoding: .utf8), text.components(separatedBy: "\r\n").count > records + 1 { break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return (process, err, partial)
    }

    @Test("SIGTERM and SIGINT: the unfinished file removed, the previous output intact, exit 143 / 130",
          arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130))])
    func stopSignals(_ sig: Int32, _ status: Int32) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out.csv")
        let (process, _, partial) = try startRun(in: dir, out: out, count: 300, records: 2)
        kill(process.processIdentifier, sig)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == status)
        #expect(!FileManager.default.fileExists(atPath: partial.path))
        #expect(try String(contentsOf: out, encoding: .utf8) == "previous\n")
    }

    @Test("A crash keeps every record written before it in OUT.incomplete and names the input being read")
    func crashKeepsRecords() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out.csv")
        let (process, err, _) = try startRun(in: dir, out: out, count: 300, records: 3)
        kill(process.processIdentifier, SIGSEGV)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGSEGV)
        #expect(message.contains("crashed (signal 11) while reading:") && message.contains("photos/"), "\(message)")
        let kept = try String(contentsOf: dir.appendingPathComponent("out.csv.incomplete"), encoding: .utf8)
        let rows = parseCSV(kept)
        #expect(rows.count >= 4 && rows[0].first == "file")
        #expect(rows.dropFirst().allSatisfy { $0.count == ResultWriter.csvColumns.count && $0[3] == "7394" })
        #expect(try String(contentsOf: out, encoding: .utf8) == "previous\n")
    }
}
