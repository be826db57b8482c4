// Platform differences for file reading live here and nowhere else.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads whole files with POSIX calls so that each failure maps to an exact error code.
enum FileBytes {
    /// The file's bytes. Throws `fileNotFound`, `unreadable`, `notARegularFile` or
    /// `fileTooLarge` (more than `limit` bytes: told by `fstat` before reading, and again
    /// while reading in 1 MiB chunks should the file grow).
    ///
    /// Opened without blocking, so that a named pipe with no writer is refused at once
    /// instead of waiting for one (on a regular file the flag changes nothing).
    static func read(_ path: String, limit: Int = .max) throws(ImageLoadError) -> [UInt8] {
        var info = stat()
        // told by its type before opening (a socket cannot even be opened), and again
        // once open, in case the path changed in between
        if stat(path, &info) == 0 { try requireRegular(info, path) }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 { throw failure(errno, path) }
        defer { close(fd) }
        guard fstat(fd, &info) == 0 else { throw failure(errno, path) }
        try requireRegular(info, path)
        if Int(info.st_size) > limit { throw tooLarge(path, Int(info.st_size), limit) }
        var bytes = [UInt8]()
        bytes.reserveCapacity(max(0, Int(info.st_size)))
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = chunk.withUnsafeMutableBytes { readBytes(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure(errno, path)
            }
            if n == 0 { break }
            if bytes.count + n > limit { throw tooLarge(path, bytes.count + n, limit) }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }

    private static func requireRegular(_ info: stat, _ path: String) throws(ImageLoadError) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw ImageLoadError(.unreadable, path: path, "is a directory, not an image file")
        default: throw ImageLoadError(.notARegularFile, path: path, "is \(kindName(info.st_mode)), not a regular file")
        }
    }

    /// "a named pipe", "a socket", "a device" for the file type bits of `mode`.
    static func kindName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: return "a named pipe"
        case S_IFSOCK: return "a socket"
        case S_IFCHR, S_IFBLK: return "a device"
        default: return "a special file"
        }
    }

    /// What is at `path`, following symbolic links; nil when nothing (or it cannot be
    /// examined).
    static func kind(of path: String) -> InputFileKind? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        default: return .special
        }
    }

    private static func tooLarge(_ path: String, _ size: Int, _ limit: Int) -> ImageLoadError {
        ImageLoadError(.fileTooLarge, path: path,
                       "is \(size) bytes or more, above the limit of \(limit) bytes; not read")
    }

    private static func failure(_ code: Int32, _ path: String) -> ImageLoadError {
        let reason = String(cString: strerror(code))
        switch code {
        case ENOENT, ENOTDIR:
            return ImageLoadError(.fileNotFound, path: path, "no such file")
        case EISDIR:
            return ImageLoadError(.unreadable, path: path, "is a directory, not an image file")
        default:
            return ImageLoadError(.unreadable, path: path, "cannot be read (\(reason))")
        }
    }
}

// `read(2)` by a name no method shadows (FileBytes.read and others are Swift functions).
#if canImport(Glibc)
let readBytes = Glibc.read
#elseif canImport(Musl)
let readBytes = Musl.read
#elseif canImport(Darwin)
let readBytes = Darwin.read
#endif

/// What a path names, as far as reading images is concerned.
public enum InputFileKind: Sendable, Equatable {
    /// A regular file: it can be read.
    case regular
    /// A folder.
    case directory
    /// A named pipe, socket or device: never read (`ImageLoadError.Code.notARegularFile`).
    case special

    /// What is at `path` (symbolic links followed), or nil when nothing is.
    public static func of(_ path: String) -> InputFileKind? { FileBytes.kind(of: path) }
}
