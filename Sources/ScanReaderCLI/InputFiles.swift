import Foundation
import ScanReader

/// Expands the command line's inputs into the entries to read, in order; every entry met
/// becomes a result or an error record.
enum InputFiles {
    /// Arguments as given: a folder walked (`ImageFolder.entries`; one that holds no image
    /// at all is a `no_images` record), a path that is not UTF-8 a `bad_file_name` record,
    /// any other path kept (the loader gives a missing file its record); then the
    /// `--files-from` entries (`-`: stdin), where a folder is an `unreadable` record: a list
    /// names files.
    static func expand(_ arguments: [String], filesFrom: String?, nulSeparated: Bool = false) throws -> [InputEntry] {
        let raw = nonUTF8Arguments()
        var result: [InputEntry] = []
        for argument in arguments {
            if let bytes = raw[argument] {
                result.append(.badName(bytes))
            } else if InputFileKind.of(argument) == .directory {
                let found = ImageFolder.entries(in: argument)
                result += found.isEmpty
                    ? [.refused(path: argument, code: .noImages, message: "\(argument): folder holds no JPEG or PNG file")]
                    : found
            } else {
                result.append(.file(argument))
            }
        }
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
            result += listedPaths(data, nulSeparated: nulSeparated).map { bytes in
                guard let path = FileName.text(bytes) else { return .badName(bytes) }
                if InputFileKind.of(path) == .directory {
                    return .refused(path: path, code: .unreadable, message: "\(path): is a folder; a list names files")
                }
                return .file(path)
            }
        }
        return result
    }

    /// The entries of a `--files-from` list, as bytes: split on LF only (a name may hold
    /// any other character, U+2028 and U+0085 included), or on NUL with `-0`; a leading
    /// UTF-8 byte order mark dropped; empty entries skipped.
    static func listedPaths(_ data: Data, nulSeparated: Bool) -> [[UInt8]] {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        let separator: UInt8 = nulSeparated ? 0 : 0x0A
        return bytes.split(separator: separator, omittingEmptySubsequences: true).map(Array.init)
    }

    /// The command-line arguments that are not UTF-8, keyed by the text Swift made of
    /// them (bad bytes replaced by U+FFFD), so that such an input is named by its bytes.
    static func nonUTF8Arguments() -> [String: [UInt8]] {
        var map: [String: [UInt8]] = [:]
        for k in 0..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[k] else { continue }
            let bytes = Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map { UInt8(bitPattern: $0) }
            if FileName.text(bytes) == nil { map[String(decoding: bytes, as: UTF8.self)] = bytes }
        }
        return map
    }
}
