import Foundation
import ScanReader

/// Expands the command line's inputs into the files to read, in order.
enum InputFiles {
    /// Files as given; directories walked (sorted, recursively) for files whose first
    /// bytes are a JPEG or PNG signature; `--files-from` lines appended (`-`: stdin).
    /// A path that does not exist is kept: it becomes an error record.
    static func expand(_ arguments: [String], filesFrom: String?) throws -> [String] {
        var paths = arguments
        if let filesFrom {
            let text: String
            if filesFrom == "-" {
                text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            } else {
                guard let data = FileManager.default.contents(atPath: filesFrom) else {
                    throw CLIFailure(description: "\(filesFrom): cannot read the list of files")
                }
                text = String(decoding: data, as: UTF8.self)
            }
            paths += text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
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
            guard let handle = FileHandle(forReadingAtPath: path) else { continue }
            let head = handle.readData(ofLength: 8)
            try? handle.close()
            if ImageFormat.sniff(head) != nil { found.append(path) }
        }
        return found.sorted()
    }
}
