// Expanding inputs into the files to read: every entry met is accounted for.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One input after expansion: a file to read, or the reason it cannot be.
public enum InputEntry: Sendable, Equatable {
    /// A path to hand to the loader (which gives the exact error if it cannot be read).
    case file(String)
    /// An entry that is refused without reading: its error record's path, code and message.
    case refused(path: String, code: ImageLoadError.Code, message: String)

    /// The path (escaped for a name that is not UTF-8) as it goes into the record.
    public var path: String {
        switch self {
        case .file(let path), .refused(let path, _, _): return path
        }
    }

    /// A refusal for `bytes`, a path that is not UTF-8: it cannot be written to a text
    /// output as it is, so it is refused and named escaped (see `FileName.escaped`).
    public static func badName(_ bytes: [UInt8]) -> InputEntry {
        let shown = FileName.escaped(bytes)
        return .refused(path: shown, code: .badFileName,
                        message: "\(shown): the name is not UTF-8 (bytes shown as \\xHH); rename the file to read it")
    }
}

/// File names as the system stores them: bytes, usually but not always UTF-8.
public enum FileName {
    /// `bytes` as text when they are valid UTF-8, else nil.
    public static func text(_ bytes: [UInt8]) -> String? {
        String(validating: bytes, as: UTF8.self)
    }

    /// `bytes` as text, each byte that is not part of valid UTF-8 written `\xHH`
    /// (upper-case hex): `caf\xE9.jpg` for a Latin-1 "café.jpg".
    public static func escaped(_ bytes: [UInt8]) -> String {
        var out = ""
        var i = 0
        while i < bytes.count {
            let n = sequenceLength(bytes, at: i)
            if n > 0, let valid = String(validating: bytes[i..<i + n], as: UTF8.self) {
                out += valid
                i += n
            } else {
                out += "\\x" + String(bytes[i], radix: 16, uppercase: true).leftPadded(to: 2)
                i += 1
            }
        }
        return out
    }

    /// The length of the UTF-8 sequence a lead byte announces, 0 when it is no lead
    /// byte or the continuation bytes are missing.
    private static func sequenceLength(_ bytes: [UInt8], at i: Int) -> Int {
        let lead = bytes[i]
        let n: Int
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: n = 2
        case 0xE0...0xEF: n = 3
        case 0xF0...0xF4: n = 4
        default: return 0
        }
        guard i + n <= bytes.count else { return 0 }
        for k in 1..<n where bytes[i + k] & 0xC0 != 0x80 { return 0 }
        return n
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

/// Walks folders for images, accounting for every entry met.
public enum ImageFolder {
    /// The entries of `folder` and its subfolders, sorted by path (byte order):
    /// files whose first bytes are a JPEG or PNG signature; files that cannot be opened,
    /// empty files, pipes, sockets and devices (the loader gives each its error record);
    /// names that are not UTF-8 (`bad_file_name`), subfolders that cannot be opened
    /// (`unreadable`) and links to folders (`not_a_regular_file`: never followed, so a
    /// loop cannot trap the walk). Other files are not images and are skipped.
    public static func entries(in folder: String) -> [InputEntry] {
        var found: [(key: [UInt8], entry: InputEntry)] = []
        let root = Array(folder.utf8)
        walk(root.last == UInt8(ascii: "/") ? Array(root.dropLast()) : root, into: &found)
        return found.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map(\.entry)
    }

    private static func walk(_ folder: [UInt8], into found: inout [(key: [UInt8], entry: InputEntry)]) {
        guard let dir = withCString(folder, { opendir($0) }) else {
            let shown = FileName.escaped(folder)
            found.append((folder, .refused(path: shown, code: .unreadable,
                                           message: "\(shown): folder cannot be opened (\(String(cString: strerror(errno))))")))
            return
        }
        defer { closedir(dir) }
        var names: [[UInt8]] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix(while: { $0 != 0 })) }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            names.append(name)
        }
        for name in names {
            let path = folder + [UInt8(ascii: "/")] + name
            guard let text = FileName.text(path) else {
                found.append((path, .badName(path)))
                continue
            }
            var info = stat()
            guard lstat(text, &info) == 0 else { found.append((path, .file(text))); continue }
            var isLink = false
            if info.st_mode & S_IFMT == S_IFLNK {
                isLink = true
                if stat(text, &info) != 0 { found.append((path, .file(text))); continue }   // dangling: file_not_found
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                if isLink {
                    found.append((path, .refused(path: text, code: .notARegularFile,
                                                 message: "\(text): is a link to a folder (not followed)")))
                } else {
                    walk(path, into: &found)
                }
            case S_IFREG:
                if mayBeImage(text) { found.append((path, .file(text))) }
            default:
                found.append((path, .file(text)))   // pipe, socket, device: refused by the loader unopened
            }
        }
    }

    /// True unless the file opens and its first bytes are neither empty nor an image
    /// signature: a file that cannot be opened or holds nothing may be an image gone wrong.
    private static func mayBeImage(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 { return true }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 8)
        let n = head.withUnsafeMutableBytes { readBytes(fd, $0.baseAddress, $0.count) }
        if n <= 0 { return true }
        return ImageFormat.sniff(Array(head[0..<n])) != nil
    }

    private static func withCString<R>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
        (bytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
        }
    }
}
