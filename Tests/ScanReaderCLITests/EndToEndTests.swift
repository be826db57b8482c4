import Foundation
import ScanReader
import Testing

@Suite("scanreader end to end", .serialized)
struct EndToEndTests {
    static let golden = CLI.root.appendingPathComponent("Tests/ScanReaderCLITests/Golden")
    static var recording: Bool { ProcessInfo.processInfo.environment["SCANREADER_RECORD_GOLDEN"] == "1" }

    @Test("SampleImages read as recorded (JSON compared field by field, confidences within 0.002)")
    func goldenJSON() throws {
        let run = try CLI.run(["SampleImages", "--format", "json", "--jobs", "2"])
        #expect(run.status == 0, "\(run.stderr)")
        let file = Self.golden.appendingPathComponent("sample-images.json")
        if Self.recording { try Data(run.stdout.utf8).write(to: file); return }
        let expected = try JSONDecoder().decode([ScanResult].self, from: Data(contentsOf: file))
        let actual = try JSONDecoder().decode([ScanResult].self, from: Data(run.stdout.utf8))
        #expect(actual.map(\.file) == expected.map(\.file))
        for (a, e) in zip(actual, expected) {
            #expect(a.regions.map(\.text) == e.regions.map(\.text), "\(a.file)")
            #expect(a.regions.map(\.kind) == e.regions.map(\.kind), "\(a.file)")
            #expect(a.width == e.width && a.height == e.height && a.orientation == e.orientation, "\(a.file)")
            for (ra, re) in zip(a.regions, e.regions) {
                #expect(abs(ra.confidence - re.confidence) < 0.002, "\(a.file) region \(ra.index)")
                for (ca, ce) in zip(ra.corners.joined(), re.corners.joined()) { #expect(abs(ca - ce) < 1.5, "\(a.file)") }
            }
        }
    }

    @Test("The CSV has the recorded rows (text, kind, grid size)")
    func goldenCSV() throws {
        let run = try CLI.run(["SampleImages", "--format", "csv"])
        #expect(run.status == 0)
        let file = Self.golden.appendingPathComponent("sample-images.csv")
        if Self.recording { try Data(run.stdout.utf8).write(to: file); return }
        let expected = parseCSV(try String(contentsOf: file, encoding: .utf8))
        let actual = parseCSV(run.stdout)
        #expect(actual.first == ResultWriter.csvColumns)
        let key = { (rows: [[String]]) in rows.map { [$0[0], $0[1], $0[2], $0[3], $0[13], $0[14], $0[15]] } }
        #expect(key(actual) == key(expected))
    }

    @Test("SampleImages score all exact with scanreader eval")
    func sampleImagesExact() throws {
        let run = try CLI.run(["eval", "--truth", "SampleImages/expected.csv"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("fields: 12, exact: 100.00 %"), "\(run.stdout)")
        #expect(run.stdout.contains("grids: 3, exact: 100.00 %"), "\(run.stdout)")
    }

    @Test("Region truth (JSON Lines): SampleImages' regions all found and read exactly; a gallery is written")
    func sampleImagesRegions() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let gallery = dir.appendingPathComponent("worst.png").path
        let run = try CLI.run(["eval", "--truth", "SampleImages/regions.jsonl", "--gallery", gallery])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("| **all** | 9 | 100.0 % (11/11) | 100.0 % | 100.0 % | 0.0 % | 100.0 % |"),
                "\(run.stdout)")
        #expect(run.stdout.contains("| type: **sudoku** | 2 |"), "\(run.stdout)")
        #expect(run.stdout.contains("| type: **sticky-note** | 2 | 100.0 % (2/2) |"), "\(run.stdout)")
        #expect(run.stdout.contains("| type: **blank-sheet** | 1 | 100.0 % (1/1) |"), "\(run.stdout)")
        let png = try Data(contentsOf: URL(fileURLWithPath: gallery))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test("A photo stored sideways without its EXIF tag: read as stored by default, turned upright by --orientation auto")
    func sidewaysWithoutTag() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // rotated-exif.jpg with its APP1 (EXIF) segment cut out
        var bytes = [UInt8](try Data(contentsOf: CLI.root.appendingPathComponent("SampleImages/rotated-exif.jpg")))
        #expect(bytes[2] == 0xFF && bytes[3] == 0xE1)
        let length = Int(bytes[4]) << 8 | Int(bytes[5])
        bytes.removeSubrange(2..<(4 + length))
        let file = dir.appendingPathComponent("sideways.jpg")
        try Data(bytes).write(to: file)
        let auto = try CLI.run([file.path, "--format", "jsonl", "--orientation", "auto"])
        let result = try JSONDecoder().decode(ScanResult.self, from: Data(auto.stdout.utf8))
        #expect(result.orientation == 6)
        #expect(result.regions.map(\.text) == ["602"], "\(auto.stdout)")
        let exif = try CLI.run([file.path, "--format", "jsonl"])
        let asStored = try JSONDecoder().decode(ScanResult.self, from: Data(exif.stdout.utf8))
        #expect(asStored.orientation == 1)
    }

    @Test("A named pipe, named or met in a folder, is an error record at once, never a wait; a device too")
    func specialFiles() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pipe = dir.appendingPathComponent("pipe.jpg").path
        let mkfifo = Process()
        mkfifo.executableURL = URL(fileURLWithPath: "/usr/bin/mkfifo")
        mkfifo.arguments = [pipe]
        try mkfifo.run()
        mkfifo.waitUntilExit()
        try FileManager.default.copyItem(atPath: CLI.root.appendingPathComponent("SampleImages/sticky-note.jpg").path,
                                         toPath: dir.appendingPathComponent("note.jpg").path)
        for arguments in [[pipe, "/dev/null"], [dir.path]] {
            let run = try #require(try CLI.run(arguments + ["--format", "jsonl"], timeout: 30), "hung on \(arguments)")
            #expect(run.status == 2)
            let results = try run.stdout.split(separator: "\n").map { try JSONDecoder().decode(ScanResult.self, from: Data($0.utf8)) }
            let codes = results.map { $0.error?.code ?? $0.status }
            #expect(codes == (arguments.count == 2 ? ["not_a_regular_file", "not_a_regular_file"] : ["ok", "not_a_regular_file"]),
                    "\(run.stdout)")
        }
    }

    @Test("--files-from splits on newline only (U+2028 and U+0085 belong to names), drops a BOM; -0 splits on NUL")
    func filesFromSeparators() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let names = ["line\u{2028}sep.jpg", "next\u{85}line.jpg"]
        for name in names {
            try FileManager.default.copyItem(at: CLI.root.appendingPathComponent("SampleImages/shadow.jpg"),
                                             to: dir.appendingPathComponent(name))
        }
        let paths = names.map { dir.appendingPathComponent($0).path }
        let byLine = try CLI.run(["--files-from", "-", "--format", "jsonl", "--quiet"],
                                 stdin: "\u{FEFF}" + paths.joined(separator: "\n") + "\n")
        let nul = try CLI.run(["--files-from", "-", "-0", "--format", "jsonl", "--quiet"],
                              stdin: paths.joined(separator: "\0") + "\0")
        for run in [byLine, nul] {
            #expect(run.status == 0, "\(run.stdout)")
            let results = try run.stdout.split(separator: "\n").map { try JSONDecoder().decode(ScanResult.self, from: Data($0.utf8)) }
            #expect(results.map(\.file) == paths)
            #expect(results.allSatisfy { $0.status == "ok" && $0.regions.first?.text == "7394" })
        }
    }

    @Test("--out a device is written, never renamed over; --out a symbolic link or a folder is refused, the link left alone")
    func outputThatIsNoPlainFile() throws {
        let devnull = try CLI.run(["SampleImages/sticky-note.jpg", "--out", "/dev/null", "--format", "csv"])
        #expect(devnull.status == 0, "\(devnull.stderr)")
        #expect(InputFileKind.of("/dev/null") == .special)
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("previous.csv"), link = dir.appendingPathComponent("link.csv")
        try Data("previous\n".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let linked = try CLI.run(["SampleImages/sticky-note.jpg", "--out", link.path])
        #expect(linked.status == 1 && linked.stderr.contains("is a symbolic link"), "\(linked.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try String(contentsOf: target, encoding: .utf8) == "previous\n")
        let folder = try CLI.run(["SampleImages/sticky-note.jpg", "--out", dir.path])
        #expect(folder.status == 1 && folder.stderr.contains("is a folder"), "\(folder.stderr)")
    }

    @Test("In a folder, an empty file and a file that cannot be read get their records, in order; other files are not images")
    func folderAccounting() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(atPath: CLI.root.appendingPathComponent("SampleImages/sticky-note.jpg").path,
                                         toPath: dir.appendingPathComponent("b-note.jpg").path)
        #expect(FileManager.default.createFile(atPath: dir.appendingPathComponent("a-empty.jpg").path, contents: Data()))
        try Data("plain text".utf8).write(to: dir.appendingPathComponent("c-readme.txt"))
        let locked = dir.appendingPathComponent("d-locked.jpg")
        try FileManager.default.copyItem(atPath: CLI.root.appendingPathComponent("SampleImages/shadow.jpg").path,
                                         toPath: locked.path)
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: locked.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: locked.path) }
        // root reads any file whatever its mode: then the locked file is simply read
        let lockedReads = FileManager.default.isReadableFile(atPath: locked.path)
        let run = try CLI.run([dir.path, "--format", "jsonl"])
        #expect(run.status == 2)
        let results = try run.stdout.split(separator: "\n").map { try JSONDecoder().decode(ScanResult.self, from: Data($0.utf8)) }
        #expect(results.map { URL(fileURLWithPath: $0.file).lastPathComponent } == ["a-empty.jpg", "b-note.jpg", "d-locked.jpg"])
        #expect(results.map { $0.error?.code ?? $0.status } == ["empty_file", "ok", lockedReads ? "ok" : "unreadable"])
    }

    @Test("Partial files of killed runs are removed by the next run; a live run's is left alone")
    func stalePartials() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // PID 999999999 cannot exist (Linux caps PIDs at 4194304); this test process is alive
        let stale = dir.appendingPathComponent(".out.csv.partial-999999999")
        let live = dir.appendingPathComponent(".out.csv.partial-\(ProcessInfo.processInfo.processIdentifier)")
        for file in [stale, live] { try Data("x".utf8).write(to: file) }
        let run = try CLI.run(["SampleImages/sticky-note.jpg", "--out", dir.appendingPathComponent("out.csv").path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: live.path))
    }

    @Test("A region truth file with a bad line: exit 1, the file and line named")
    func badRegionTruth() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let truth = dir.appendingPathComponent("regions.jsonl")
        try Data("{\"file\":\"a.jpg\",\"regions\":[]}\n{\"file\":\"b.jpg\"}\n".utf8).write(to: truth)
        let run = try CLI.run(["eval", "--truth", truth.path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("regions.jsonl:2: not a truth line"), "\(run.stderr)")
    }

    @Test("A corrupt file in the middle: its error record, every other result complete, exit 2")
    func corruptInTheMiddle() throws {
        let corrupt = "Tests/ImageCodecsTests/Fixtures/corrupt/jpeg-cut-late-in-scan.jpg"
        let run = try CLI.run(["SampleImages/shadow.jpg", corrupt, "/nonexistent/x.jpg", "SampleImages/two-lines.jpg",
                               "--format", "jsonl", "--quiet"])
        #expect(run.status == 2)
        let results = try run.stdout.split(separator: "\n").map { try JSONDecoder().decode(ScanResult.self, from: Data($0.utf8)) }
        #expect(results.map(\.file) == ["SampleImages/shadow.jpg", corrupt, "/nonexistent/x.jpg", "SampleImages/two-lines.jpg"])
        #expect(results.map(\.status) == ["ok", "error", "error", "ok"])
        #expect(results[1].error?.code == "corrupt_image")
        #expect(results[2].error?.code == "file_not_found")
        #expect(results[0].regions.first?.text == "7394" && results[3].regions.first?.text == "12345")
    }

    @Test("Exit codes: 64 for usage, 1 for a bad model or an unwritable output")
    func exitCodes() throws {
        #expect(try CLI.run([]).status == 64)
        #expect(try CLI.run(["SampleImages", "--jobs", "0"]).status == 64)
        let badModel = try CLI.run(["SampleImages", "--model", "/nonexistent/m.safetensors"])
        #expect(badModel.status == 1 && badModel.stderr.contains("/nonexistent/m.safetensors"))
        #expect(try CLI.run(["SampleImages", "--model", "README.md"]).status == 1)
        let unwritable = try CLI.run(["SampleImages/shadow.jpg", "--out", "/nonexistent/dir/out.csv"])
        #expect(unwritable.status == 1 && unwritable.stderr.contains("/nonexistent/dir/out.csv"))
    }

    @Test("Format follows --out's extension; results come in input order whatever --jobs")
    func formatAndOrder() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("r.jsonl").path
        let files = ["SampleImages/two-lines.jpg", "SampleImages/scan-table.png", "SampleImages/shadow.jpg", "SampleImages/comb-boxes.jpg"]
        #expect(try CLI.run(files + ["--out", out, "--jobs", "3"]).status == 0)
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        let results = try lines.map { try JSONDecoder().decode(ScanResult.self, from: Data($0.utf8)) }
        #expect(results.map(\.file) == files)
        let fromList = try CLI.run(["--files-from", "-", "--format", "jsonl"], stdin: files.joined(separator: "\n"))
        #expect(fromList.stdout.split(separator: "\n").count == files.count)
    }

    @Test("Awkward file names are quoted per RFC 4180 and read back intact")
    func csvQuoting() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let names = ["comma,name.jpg", "quote\"name.jpg", "new\nline.jpg", "ünïcødé 数字.jpg"]
        for name in names {
            try FileManager.default.copyItem(at: CLI.root.appendingPathComponent("SampleImages/shadow.jpg"),
                                             to: dir.appendingPathComponent(name))
        }
        let run = try CLI.run(names.map { dir.appendingPathComponent($0).path } + ["--format", "csv"])
        #expect(run.status == 0)
        let rows = parseCSV(run.stdout).dropFirst()
        #expect(rows.map { URL(fileURLWithPath: $0[0]).lastPathComponent } == names)
        #expect(rows.allSatisfy { $0.count == ResultWriter.csvColumns.count && $0[3] == "7394" })
    }

    @Test("A run killed midway leaves the previous output intact")
    func atomicOutput() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("results.csv")
        let previous = "previous,complete,output\r\n"
        try Data(previous.utf8).write(to: out)
        let list = dir.appendingPathComponent("list.txt")
        let many = Array(repeating: "SampleImages/ruled-grid.jpg", count: 400).joined(separator: "\n")
        try Data(many.utf8).write(to: list)
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["--files-from", list.path, "--out", out.path, "--jobs", "1", "--quiet"]
        process.currentDirectoryURL = CLI.root
        try process.run()
        // wait until it has started writing its temporary file, then kill it hard
        let deadline = Date().addingTimeInterval(20)
        var started = false
        while Date() < deadline && !started {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            started = names.contains { $0.hasPrefix(".results.csv.partial-") }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Thread.sleep(forTimeInterval: 0.5)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(started)
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(try String(contentsOf: out, encoding: .utf8) == previous)
        // a run that completes replaces it whole
        #expect(try CLI.run(["SampleImages/shadow.jpg", "--out", out.path]).status == 0)
        let rows = parseCSV(try String(contentsOf: out, encoding: .utf8))
        #expect(rows.count == 2 && rows[1][3] == "7394")
    }
}
