import Foundation

/// Runs the built `scanreader` binary from the repository root.
enum CLI {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The products folder holding the test bundle and the `scanreader` executable.
    static var binary: URL {
        let candidates = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
            + Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        for dir in candidates {
            let url = dir.appendingPathComponent("scanreader")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return root.appendingPathComponent(".build/debug/scanreader")
    }

    struct Output {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs with `arguments`, waits, and returns its status and output.
    @discardableResult
    static func run(_ arguments: [String], stdin: String? = nil) throws -> Output {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = root
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
                      stderr: String(decoding: e, as: UTF8.self))
    }

    /// Runs with `arguments` and kills the run after `seconds`: nil when it had to be
    /// killed (a hang), else its status and output.
    static func run(_ arguments: [String], timeout seconds: Double) throws -> Output? {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = root
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("cli-out-\(UUID().uuidString)")
        let err = FileManager.default.temporaryDirectory.appendingPathComponent("cli-err-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: out); try? FileManager.default.removeItem(at: err) }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { process.terminate(); process.waitUntilExit(); return nil }
        return Output(status: process.terminationStatus, stdout: try String(contentsOf: out, encoding: .utf8),
                      stderr: try String(contentsOf: err, encoding: .utf8))
    }

    /// A fresh temporary folder.
    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("scanreader-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}

/// A small RFC 4180 reader for checking the CSV output.
func parseCSV(_ text: String) -> [[String]] {
    var rows: [[String]] = [], row: [String] = [], field = ""
    var quoted = false, i = text.startIndex
    while i < text.endIndex {
        let c = text[i]
        if quoted {
            if c == "\"" {
                let next = text.index(after: i)
                if next < text.endIndex && text[next] == "\"" { field.append("\""); i = next } else { quoted = false }
            } else { field.append(c) }
        } else if c == "\"" {
            quoted = true
        } else if c == "," {
            row.append(field); field = ""
        } else if c == "\r\n" || c == "\n" {
            row.append(field); rows.append(row); row = []; field = ""
        } else { field.append(c) }
        i = text.index(after: i)
    }
    if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
    return rows
}
