import Foundation
import ScanReader

/// Expands the command line's inputs into the files to read, in order.
enum InputFiles {
    /// Files as given; directories walked (sorted, recursively) for files whose first
    /// bytes are a JPEG or PNG signature, and for the entries that cannot be told (files
    /// that cannot be opened, empty files, pipes and devices: each becomes an error
    /// record); `--files-from` lines appended (`-`: stdin).
    /// A path that does not exist is kept: it becomes an error record.
    static func expand(_ arguments: [String], filesFrom: String?, nulSeparated: Bool = false) throws -> [String] {
        var paths = arguments
        if let filesFrom {
            let data: Data
            if filesFrom == "-" {
                data = FileHandle.standardInput.readDataToEndOfFile()
            } else {
                guard let contents = FileManager.default.contents(atPath: filesFrom) else {
                    throw CLIFailure(description: "\(filesFrom): cannot read the list of files")
                }
                data = contents
            }
            paths += listedPaths(data, nulSeparated: nulSeparated)
        }
        var result: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                result += imagesInDirectory(path)
            } else {
                result.append(path)
            }
        }
        return result
    }

    /// The paths of a `--files-from` list: split on LF only (a name may hold any other
    /// character, U+2028 and U+0085 included), or on NUL with `-0`; a leading UTF-8 byte
    /// order mark dropped; empty entries skipped.
    static func listedPaths(_ data: Data, nulSeparated: Bool) -> [String] {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        let separator: UInt8 = nulSeparated ? 0 : 0x0A
        return bytes.split(separator: separator, omittingEmptySubsequences: true).map { String(decoding: $0, as: UTF8.self) }
    }

    static func imagesInDirectory(_ directory: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return [] }
        var found: [String] = []
        while let relative = walker.nextObject() as? String {
            let path = (directory as NSString).appendingPathComponent(relative)
            // a pipe, socket or device is never opened (a pipe would block): it becomes
            // an error record of its own
            switch InputFileKind.of(path) {
            case .regular?: break
            case .special?: found.append(path); continue
            case .directory?, nil: continue
            }
            // a file that cannot be opened, or holds nothing, may be an image that went
            // wrong: it gets its error record (unreadable, empty_file) rather than silence
            guard let handle = FileHandle(forReadingAtPath: path) else { found.append(path); continue }
            let head = handle.readData(ofLength: 8)
            try? handle.close()
            if head.isEmpty || ImageFormat.sniff(head) != nil { found.append(path) }
        }
        return found.sorted()
    }
}
