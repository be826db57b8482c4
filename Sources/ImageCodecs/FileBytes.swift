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
    /// The file's bytes. Throws `fileNotFound` or `unreadable`.
    static func read(_ path: String) throws(ImageLoadError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw failure(errno, path) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure(errno, path) }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw ImageLoadError(.unreadable, path: path, "is a directory, not an image file")
        }
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
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
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

#if canImport(Glibc)
private let readBytes = Glibc.read
#elseif canImport(Musl)
private let readBytes = Musl.read
#elseif canImport(Darwin)
private let readBytes = Darwin.read
#endif
