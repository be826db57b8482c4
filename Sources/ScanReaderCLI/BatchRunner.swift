import Foundation
import ScanReader

/// Runs `work` over `count` inputs on `jobs` threads and hands results to `emit` in input
/// order, whatever order they finish in. At most `2 × jobs` results wait for an earlier
/// one, so memory stays bounded however long the batch. `work` gets the input's index and
/// the worker's slot (0 ..< jobs).
final class BatchRunner: @unchecked Sendable {
    private let condition = NSCondition()
    private var next = 0
    private var done: [Int: ScanResult] = [:]
    private var emitted = 0

    func run(count: Int, jobs: Int, work: @escaping @Sendable (Int, Int) -> ScanResult, emit: (Int, ScanResult) -> Void) {
        let window = max(2, 2 * jobs)
        var threads: [Thread] = []
        for slot in 0..<max(1, min(jobs, count)) {
            let thread = Thread { [self] in
                while true {
                    condition.lock()
                    // wait while too far ahead of the writer
                    while next < count && next - emitted >= window { condition.wait() }
                    guard next < count else { condition.unlock(); return }
                    let index = next
                    next += 1
                    condition.unlock()
                    let result = work(index, slot)
                    condition.lock()
                    done[index] = result
                    condition.broadcast()
                    condition.unlock()
                }
            }
            threads.append(thread)
            thread.start()
        }
        while true {
            condition.lock()
            while emitted < count && done[emitted] == nil { condition.wait() }
            guard emitted < count else { condition.unlock(); break }
            let result = done.removeValue(forKey: emitted)!
            let index = emitted
            condition.unlock()
            emit(index, result)
            condition.lock()
            emitted += 1
            condition.broadcast()
            condition.unlock()
        }
    }
}

/// Writes the output: to stdout as results arrive, or to a temporary file beside the
/// destination that is renamed over it only when complete (atomic: an interrupted run
/// leaves the previous output untouched). A device or named pipe (`/dev/null`, a FIFO)
/// is written directly, never renamed over; a symbolic link or a folder is refused.
final class OutputSink {
    private let handle: FileHandle
    /// The unfinished file being written (nil: stdout or a device).
    let temporary: String?
    /// Where the finished file goes.
    let destination: String?

    init(path: String?) throws {
        guard let path, path != "-" else {
            handle = FileHandle.standardOutput; temporary = nil; destination = nil
            return
        }
        let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
        if type == .typeSymbolicLink {
            throw CLIFailure(description: "\(path): is a symbolic link; name the file it points to, which will be replaced")
        }
        switch InputFileKind.of(path) {
        case .directory?:
            throw CLIFailure(description: "\(path): is a folder, not an output file")
        case .special?:
            guard let h = FileHandle(forWritingAtPath: path) else {
                throw CLIFailure(description: "\(path): cannot write the output")
            }
            handle = h; temporary = nil; destination = nil
            return
        case .regular?, nil:
            break
        }
        let url = URL(fileURLWithPath: path)
        Self.removeStalePartials(of: url)
        let temp = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).partial-\(ProcessInfo.processInfo.processIdentifier)").path
        guard FileManager.default.createFile(atPath: temp, contents: nil),
              let h = FileHandle(forWritingAtPath: temp) else {
            throw CLIFailure(description: "\(path): cannot write the output (folder missing or not writable)")
        }
        handle = h; temporary = temp; destination = path
    }

    /// Removes `.NAME.partial-PID` files beside `destination` left by runs that were
    /// killed: those whose process no longer exists (a live run's file is left alone).
    static func removeStalePartials(of destination: URL) {
        let folder = destination.deletingLastPathComponent()
        let prefix = ".\(destination.lastPathComponent).partial-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), pid > 0 else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                unlink(folder.appendingPathComponent(name).path)
            }
        }
    }

    func write(_ text: String) throws {
        try handle.write(contentsOf: Data(text.utf8))
    }

    /// Flushes and moves the finished file into place.
    func finish() throws {
        guard let temporary, let destination else { return }
        try handle.synchronize()
        try handle.close()
        guard rename(temporary, destination) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CLIFailure(description: "\(destination): cannot replace the output (\(reason))")
        }
    }

    /// Removes an unfinished temporary file.
    func abandon() {
        guard let temporary else { return }
        try? handle.close()
        unlink(temporary)
    }
}
