/// Why an image could not be loaded: a code for programs, a message for people.
public struct ImageLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: String, Sendable, CaseIterable {
        /// No file at the path.
        case fileNotFound = "file_not_found"
        /// The path exists but cannot be read (permissions, a directory, an I/O error).
        case unreadable = "unreadable"
        /// A named pipe, socket or device: never opened for reading (it could block forever).
        case notARegularFile = "not_a_regular_file"
        /// The file holds no bytes at all.
        case emptyFile = "empty_file"
        /// The file's name is not UTF-8: refused, and named with its bad bytes as `\xHH`.
        case badFileName = "bad_file_name"
        /// A folder named as an input holds no JPEG or PNG file at all.
        case noImages = "no_images"
        /// The file is larger than the byte limit: refused before it is read.
        case fileTooLarge = "file_too_large"
        /// The bytes are not a JPEG or PNG (another format, random data).
        case unsupportedFormat = "unsupported_format"
        /// A JPEG or PNG that is damaged or truncated.
        case corrupt = "corrupt_image"
        /// The header declares more pixels than the configured limit, or decoding would
        /// need more memory than the whole budget.
        case tooLarge = "image_too_large"
        /// The decoder could not get memory.
        case outOfMemory = "out_of_memory"
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong, naming the file.
    public let message: String
    /// The file (or the name given for in-memory bytes).
    public let path: String

    /// Makes an error; the message is prefixed with the path.
    public init(_ code: Code, path: String, _ cause: String) {
        self.code = code
        self.path = path
        self.message = "\(path): \(cause)"
    }

    /// The message.
    public var description: String { message }
}
